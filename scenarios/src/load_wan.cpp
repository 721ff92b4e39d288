// [network.wan] and [[network.cluster]]: WAN scenarios (issue 6, paper 001). Each cluster is a
// LAN (hosts = N: one switch) or a switched tree ([network.cluster.tree]) behind a router; every
// router has one WAN link to a WAN core. Policies, rate limits and relays are per cluster.
#include <algorithm>
#include <map>

#include "readers.hpp"
#include "schema.hpp"

namespace tsunagi::scenario {
namespace {

constexpr double kGbps = 1e9 / 8;  // bytes/s

struct ClusterRead {
  ClusterSpec spec;
  std::vector<SwitchSpec> switches;
};

ClusterPolicy read_policy(const Section& s) {
  const std::string text = s.string("policy", "open");
  if (text == "open") return ClusterPolicy::Open;
  if (text == "firewall") return ClusterPolicy::Firewall;
  if (text == "inbound_firewall") return ClusterPolicy::InboundFirewall;
  if (text == "nat") return ClusterPolicy::Nat;
  s.fail("policy", "unknown policy \"" + text +
                       "\" — use \"open\", \"firewall\", \"inbound_firewall\" or \"nat\"");
}

std::vector<std::string> read_names(const Section& s, std::string_view key) {
  std::vector<std::string> out;
  const toml::node* node = s.table().get(key);
  if (!node) return out;
  const toml::array* list = node->as_array();
  if (!list) s.fail(key, s.path_of(key) + " must be a list of cluster names, e.g. [\"kototoi\"]");
  for (const toml::node& item : *list) {
    auto name = item.value_exact<std::string>();
    if (!name)
      s.fail(key, s.path_of(key) + " must hold strings (cluster names), e.g. [\"kototoi\"]");
    out.push_back(*name);
  }
  return out;
}

// The cluster's switches: one switch named after the cluster, or a generated tree whose switch
// names are prefixed with the cluster ("chiba", "chiba.0", ...), so host names carry the site.
std::vector<SwitchSpec> read_cluster_switches(const Section& s, const std::string& name) {
  const auto tree = s.sub("tree");
  if (tree && s.has("hosts")) {
    s.fail("tree", "cluster '" + name +
                       "' has both hosts and a tree — use hosts = N for one "
                       "switch, or a tree, not both");
  }
  if (!tree && !s.has("hosts")) {
    s.fail_here(s.path() + " ('" + name +
                "') has no hosts — add hosts = N (one switch) or a "
                "tree = { levels = [...], hosts_per_leaf = N }");
  }
  if (tree) {
    if (s.has("host_bandwidth") || s.has("host_latency")) {
      s.fail(s.has("host_bandwidth") ? "host_bandwidth" : "host_latency",
             "with a tree, give host_bandwidth/host_latency inside the tree table — move it there");
    }
    std::vector<SwitchSpec> switches = read_tree(*tree);
    for (SwitchSpec& sw : switches) {
      sw.name = name + sw.name.substr(1);  // generated names start with "s"
      if (!sw.parent.empty()) sw.parent = name + sw.parent.substr(1);
    }
    return switches;
  }
  SwitchSpec sw;
  sw.name = name;
  sw.hosts = s.count("hosts", 0, 1);
  sw.host_bandwidth = s.bandwidth("host_bandwidth", sw.host_bandwidth);
  sw.host_latency = s.duration("host_latency", sw.host_latency);
  return {sw};
}

void read_connect_rate(const Section& s, ClusterSpec& spec) {
  const auto rate = s.sub("connect_rate");
  if (!rate) return;
  if (!rate->has("per_second") || !rate->has("burst")) {
    rate->fail_here(rate->path() +
                    " needs both keys — write connect_rate = { per_second = 10, burst = 8 }");
  }
  spec.connect_rate.per_second = rate->number("per_second", 0, 1e-6, 1e9);
  spec.connect_rate.burst = rate->count("burst", 1, 1);
}

// Keys that only make sense with some policies: say so instead of ignoring them.
void check_policy_keys(const Section& s, const ClusterSpec& spec) {
  const bool filters =
      spec.policy == ClusterPolicy::Firewall || spec.policy == ClusterPolicy::InboundFirewall;
  if (!spec.allow.empty() && !filters) {
    s.fail("allow",
           "allow only applies to policy = \"firewall\" or \"inbound_firewall\" (cluster '" +
               spec.name + "') — remove it, or change the policy");
  }
  if (s.has("firewall_action") && !filters) {
    s.fail("firewall_action", "firewall_action only applies to a firewall (cluster '" + spec.name +
                                  "') — remove it, or set policy = \"firewall\"");
  }
}

ClusterRead read_cluster(const Section& s) {
  if (!s.has("name")) s.fail_here(s.path() + " has no name — add name = \"chiba\"");
  ClusterRead out;
  ClusterSpec& spec = out.spec;
  spec.name = s.string("name", "");
  if (spec.name.empty() ||
      spec.name.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
          std::string::npos) {
    s.fail("name",
           "cluster name \"" + spec.name + "\" is not allowed — use letters, digits, '_' and '-'");
  }
  out.switches = read_cluster_switches(s, spec.name);
  spec.root_switch = out.switches.front().name;
  spec.policy = read_policy(s);
  spec.allow = read_names(s, "allow");
  const std::string action = s.string("firewall_action", "drop");
  if (action != "drop" && action != "reject") {
    s.fail("firewall_action",
           "unknown firewall_action \"" + action + "\" — use \"drop\" or \"reject\"");
  }
  spec.firewall_rejects = action == "reject";
  read_connect_rate(s, spec);
  spec.wan_bandwidth = s.bandwidth("wan_bandwidth", kGbps);
  spec.wan_latency = s.duration("wan_latency", spec.wan_latency);
  spec.relays = s.count("relays", 0, 0, kMaxRelaysPerCluster);
  const std::string at = s.string("relay_at", "inside");
  if (at != "inside" && at != "gateway") {
    s.fail("relay_at", "unknown relay_at \"" + at + "\" — use \"inside\" or \"gateway\"");
  }
  spec.relay_at = at == "gateway" ? RelayPlacement::Gateway : RelayPlacement::Inside;
  check_policy_keys(s, spec);
  read_site_tcp(s, spec);
  return out;
}

// Names in allow and rendezvous must be clusters of this file.
void check_cluster_names(const std::vector<Section>& sections, const Network& network) {
  std::map<std::string, std::size_t> first;
  for (std::size_t i = 0; i < network.clusters.size(); ++i) {
    const ClusterSpec& c = network.clusters[i];
    auto [it, fresh] = first.try_emplace(c.name, i);
    if (!fresh) {
      sections[i].fail("name", "cluster name '" + c.name + "' is used twice (first at line " +
                                   std::to_string(sections[it->second].line()) +
                                   ") — give each cluster its own name");
    }
  }
  for (std::size_t i = 0; i < network.clusters.size(); ++i) {
    for (const std::string& other : network.clusters[i].allow) {
      if (other == network.clusters[i].name) {
        sections[i].fail("allow", "cluster '" + other +
                                      "' allows itself — traffic inside a "
                                      "cluster never crosses its router; remove it");
      }
      if (!first.count(other)) {
        sections[i].fail("allow", "allow names '" + other +
                                      "', which is not a [[network.cluster]] "
                                      "of this file — fix the name or add that cluster");
      }
    }
  }
}

SynTiming read_syn(const std::optional<Section>& wan) {
  SynTiming syn;
  if (!wan) return syn;
  syn.syn_rto = wan->duration("syn_rto", syn.syn_rto);
  if (syn.syn_rto <= 0) wan->fail("syn_rto", "syn_rto must be positive — e.g. syn_rto = \"1s\"");
  syn.syn_retries = wan->count("syn_retries", syn.syn_retries, 0);
  if (syn.syn_retries > kMaxSynRetries)
    wan->fail("syn_retries",
              "syn_retries above " + std::to_string(kMaxSynRetries) + " never ends — use e.g. 6");
  // The backoff doubles: a connect gives up after syn_rto x (2^(retries+1) - 1), which must
  // stay within a day (and within int64 nanoseconds: 1 day x 2^30 was not).
  const std::int64_t give_up =
      capped_product({syn.syn_rto, (std::int64_t{1} << (syn.syn_retries + 1)) - 1}, kMaxDuration);
  if (give_up > kMaxDuration)
    wan->fail(wan->has("syn_retries") ? "syn_retries" : "syn_rto",
              "a connect would give up only after syn_rto x (2^(syn_retries+1) - 1), more than a "
              "day — lower syn_rto or syn_retries (Linux: 1s and 6, 127 s)");
  return syn;
}

}  // namespace

void read_wan(const Section& network, const toml::array& items, Network& out) {
  if (network.has("switch") || network.has("tree") || network.has("random_tree")) {
    network.fail("cluster",
                 "[[network.cluster]] cannot go with [[network.switch]], [network.tree] "
                 "or [network.random_tree] — describe each cluster's switches inside it");
  }
  if (items.empty())
    network.fail("cluster", "network.cluster is empty — add a [[network.cluster]]");
  // The results score every pair of sites against the policies (sites x sites), and every
  // rank's route crosses the WAN core: 100,000 one-host sites loaded and then exhausted memory.
  if (items.size() > static_cast<std::size_t>(kMaxClusters))
    fail_at(items[static_cast<std::size_t>(kMaxClusters)].source(), network.file(),
            "more than " + std::to_string(kMaxClusters) +
                " [[network.cluster]] sites — merge sites (a site holds any number of hosts)");
  std::vector<Section> sections;
  for (std::size_t i = 0; i < items.size(); ++i) {
    sections.emplace_back(*items[i].as_table(), "network.cluster[" + std::to_string(i) + "]",
                          network.file());
  }
  for (const Section& s : sections) {
    ClusterRead cluster = read_cluster(s);
    out.clusters.push_back(std::move(cluster.spec));
    for (SwitchSpec& sw : cluster.switches) out.switches.push_back(std::move(sw));
  }
  check_cluster_names(sections, out);
  const auto wan = network.sub("wan");
  if (!wan || !wan->has("rendezvous")) {
    (wan ? *wan : network)
        .fail_here("a WAN needs the cluster of the rendezvous — add [network.wan] rendezvous = \"" +
                   out.clusters.front().name + "\" (a cluster every process can connect to)");
  }
  out.rendezvous_cluster = wan->string("rendezvous", "");
  const bool known =
      std::any_of(out.clusters.begin(), out.clusters.end(),
                  [&](const ClusterSpec& c) { return c.name == out.rendezvous_cluster; });
  if (!known) {
    wan->fail("rendezvous", "rendezvous = \"" + out.rendezvous_cluster +
                                "\" is not a [[network.cluster]] of this file — name one of them");
  }
  out.syn = read_syn(wan);
  read_backbone(sections, *wan, out);
}

void check_wan_only_keys(const Section& network) {
  if (auto wan = network.sub("wan"); wan && !network.has("cluster")) {
    network.fail("wan",
                 "[network.wan] without [[network.cluster]] has nothing to apply to — add "
                 "clusters or remove [network.wan]");
  }
}

}  // namespace tsunagi::scenario
