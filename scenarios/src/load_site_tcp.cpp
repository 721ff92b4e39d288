// [network.cluster.tcp] and the backbone keys of [network.wan] (issue 15, paper 004): each
// site's TCP stack (buffers, tuned per-peer buffers, window scaling, SACK, a rate limit for a
// slow stack) and a per-pair site RTT matrix on a backbone of one bandwidth.
#include <algorithm>
#include <map>
#include <set>

#include "readers.hpp"
#include "tsunagi/scenarios/site_tcp.hpp"

namespace tsunagi::scenario {
namespace {

constexpr const char* kSizeHelp =
    "write a size such as \"64KB\", \"5.25MB\" or 65536 (KB and MB are 1024-based)";

std::uint64_t size_value(const Section& s, std::string_view key, std::uint64_t fallback) {
  const toml::node* node = s.table().get(key);
  if (!node) return fallback;
  if (auto whole = node->value_exact<std::int64_t>()) {
    if (*whole < 0) s.fail(key, s.path_of(key) + " is negative — " + kSizeHelp);
    return static_cast<std::uint64_t>(*whole);
  }
  auto text = node->value_exact<std::string>();
  if (!text)
    s.fail(key, s.path_of(key) + " must be a size, not " + describe(*node) + " — " + kSizeHelp);
  auto bytes = parse_size(*text);
  if (!bytes) s.fail(key, s.path_of(key) + " = \"" + *text + "\" is not a size — " + kSizeHelp);
  return *bytes;
}

// A socket buffer: 0 (the stack's default) or at least one segment, at most 1 GB.
std::uint64_t buffer_value(const Section& s, std::string_view key, std::uint64_t fallback) {
  const std::uint64_t bytes = size_value(s, key, fallback);
  if (bytes != 0 && (bytes < 1024 || bytes > (std::uint64_t{1} << 30))) {
    s.fail(key, s.path_of(key) +
                    " must be between 1KB and 1GB (or 0 for the stack's default) — e.g. \"64KB\"");
  }
  return bytes;
}

PeerBuffers read_peer(const Section& s) {
  if (!s.has("peer")) s.fail_here(s.path() + " has no peer — add peer = \"<site name>\"");
  PeerBuffers out;
  out.peer = s.string("peer", "");
  out.send = buffer_value(s, "send_buffer", 0);
  out.recv = buffer_value(s, "recv_buffer", 0);
  if (out.send == 0 && out.recv == 0) {
    s.fail_here(s.path() + " (peer '" + out.peer +
                "') sets no buffer — add send_buffer and/or recv_buffer");
  }
  return out;
}

std::size_t cluster_index(const Network& network, const std::string& name) {
  for (std::size_t i = 0; i < network.clusters.size(); ++i)
    if (network.clusters[i].name == name) return i;
  return network.clusters.size();
}

// Each tuned entry names another cluster of this file, once.
void check_tuned_peers(const Section& tcp, const Network& network, std::size_t self,
                       const toml::array& items) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Section entry(*items[i].as_table(), tcp.path() + ".tuned[" + std::to_string(i) + "]",
                        tcp.file());
    const std::string peer = entry.string("peer", "");
    const std::size_t index = cluster_index(network, peer);
    if (index == network.clusters.size()) {
      entry.fail("peer", "peer = \"" + peer +
                             "\" is not a [[network.cluster]] of this file — fix the name");
    }
    if (index == self) {
      entry.fail("peer", "peer = \"" + peer +
                             "\" is this site itself — tuned buffers are per peer site; use "
                             "send_buffer/recv_buffer of the site for traffic inside it");
    }
    if (!seen.insert(peer).second)
      entry.fail("peer", "peer \"" + peer + "\" has two tuned entries — keep one");
  }
}

struct RttEntry {
  std::size_t a = 0;
  std::size_t b = 0;
  TimeNs rtt = 0;
};

RttEntry read_rtt_entry(const Section& s, const Network& network) {
  const std::vector<std::string> sites = s.string_list("between", {});
  if (sites.size() != 2) {
    s.fail(sites.empty() ? std::string_view("rtt") : std::string_view("between"),
           s.path() + " needs between = [\"<site>\", \"<site>\"] — two cluster names");
  }
  RttEntry out;
  out.a = cluster_index(network, sites[0]);
  out.b = cluster_index(network, sites[1]);
  for (const std::string& name : sites) {
    if (cluster_index(network, name) == network.clusters.size())
      s.fail("between", "'" + name + "' is not a [[network.cluster]] of this file — fix the name");
  }
  if (out.a == out.b)
    s.fail("between", "between names one site twice — an RTT joins two different sites");
  if (!s.has("rtt")) s.fail_here(s.path() + " has no rtt — add rtt = \"17ms\"");
  out.rtt = s.duration("rtt", 0);
  if (out.rtt <= 0) s.fail("rtt", "rtt must be positive — e.g. rtt = \"17ms\"");
  return out;
}

// Every pair given once, and each RTT long enough for the links inside both sites.
void check_rtt_matrix(const Section& wan, const std::vector<Section>& entries,
                      const std::vector<RttEntry>& read, const Network& network) {
  const std::size_t n = network.clusters.size();
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> given;
  for (std::size_t i = 0; i < read.size(); ++i) {
    const std::pair key{std::min(read[i].a, read[i].b), std::max(read[i].a, read[i].b)};
    auto [it, fresh] = given.emplace(key, i);
    if (!fresh) {
      entries[i].fail("between", "this pair already has an rtt (line " +
                                     std::to_string(entries[it->second].line()) +
                                     ") — keep one entry per pair");
    }
    if (backbone_latency(network, static_cast<int>(read[i].a), static_cast<int>(read[i].b)) < 0) {
      entries[i].fail("rtt",
                      "rtt is shorter than twice the host and wan latencies of both sites — "
                      "raise it, or lower their host_latency / wan_latency");
    }
  }
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = a + 1; b < n; ++b) {
      if (given.count({a, b})) continue;
      wan.fail("site_rtt", "site_rtt has no entry for " + network.clusters[a].name + " <-> " +
                               network.clusters[b].name + " — add { between = [\"" +
                               network.clusters[a].name + "\", \"" + network.clusters[b].name +
                               "\"], rtt = \"...\" }");
    }
  }
}

}  // namespace

void read_site_tcp(const Section& cluster, ClusterSpec& spec) {
  const auto tcp = cluster.sub("tcp");
  if (!tcp) return;
  spec.tcp.send_buffer = buffer_value(*tcp, "send_buffer", 0);
  spec.tcp.recv_buffer = buffer_value(*tcp, "recv_buffer", 0);
  spec.tcp.window_scaling = tcp->boolean("window_scaling", true);
  spec.tcp.sack = tcp->boolean("sack", true);
  spec.tcp.rate_limit = tcp->bandwidth("rate_limit", 0);
  if (const toml::array* items = tcp->table().get_as<toml::array>("tuned")) {
    for (std::size_t i = 0; i < items->size(); ++i) {
      spec.tcp.tuned.push_back(
          read_peer(Section(*(*items)[i].as_table(),
                            tcp->path() + ".tuned[" + std::to_string(i) + "]", tcp->file())));
    }
  }
}

void read_backbone(const std::vector<Section>& clusters, const Section& wan, Network& out) {
  for (std::size_t i = 0; i < clusters.size(); ++i) {
    const auto tcp = clusters[i].sub("tcp");
    if (!tcp) continue;
    if (const toml::array* items = tcp->table().get_as<toml::array>("tuned"))
      check_tuned_peers(*tcp, out, i, *items);
  }
  const std::string profile = wan.string("tcp_profile", "default");
  if (profile != "default" && profile != "tuned") {
    wan.fail("tcp_profile",
             "unknown tcp_profile \"" + profile + "\" — use \"default\" or \"tuned\"");
  }
  out.backbone.profile = profile == "tuned" ? TcpProfile::Tuned : TcpProfile::Default;
  const toml::array* items = wan.table().get_as<toml::array>("site_rtt");
  if (!items) {
    if (wan.has("backbone_bandwidth")) {
      wan.fail("backbone_bandwidth",
               "backbone_bandwidth needs site_rtt (a per-pair RTT matrix) — add site_rtt or "
               "remove it (the star WAN uses each cluster's wan_bandwidth)");
    }
    return;
  }
  out.backbone.bandwidth = wan.bandwidth("backbone_bandwidth", out.backbone.bandwidth);
  const std::size_t n = out.clusters.size();
  out.backbone.rtt.assign(n, std::vector<TimeNs>(n, 0));
  std::vector<Section> entries;
  std::vector<RttEntry> read;
  for (std::size_t i = 0; i < items->size(); ++i) {
    entries.emplace_back(*(*items)[i].as_table(),
                         wan.path() + ".site_rtt[" + std::to_string(i) + "]", wan.file());
    read.push_back(read_rtt_entry(entries.back(), out));
    out.backbone.rtt[read.back().a][read.back().b] = read.back().rtt;
    out.backbone.rtt[read.back().b][read.back().a] = read.back().rtt;
  }
  check_rtt_matrix(wan, entries, read, out);
}

}  // namespace tsunagi::scenario
