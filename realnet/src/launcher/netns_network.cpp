// Turning a scenario's switches into namespace/bridge/veth/TAP commands. See netns_network.hpp.
#include "netns_network.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "netns_builder.hpp"
#include "netns_dragonfly.hpp"
#include "netns_policy.hpp"
#include "netns_serial.hpp"
#include "netns_wan.hpp"
#include "tsunagi/realnet/realnet_backend.hpp"

namespace tsunagi::realnet {
namespace {

// "10.77.x.y" for the k-th address (k >= 1): one flat /16, bridges forward everything.
std::string address(int k) {
  return "10.77." + std::to_string(k / 256) + "." + std::to_string(k % 256);
}

// Addresses: one flat 10.77.0.0/16 without clusters; 10.<100+c>.0.0/16 for cluster c.
std::string lan_address(int cluster, int k) {
  return cluster < 0 ? address(k) : host_address(cluster, k);
}
std::string router_wan_ip(int c) {
  return "172.16." + std::to_string((c + 1) / 256) + "." + std::to_string((c + 1) % 256);
}

// The WAN around the clusters: routers, the core, routes, static ARP, policies, SYN timing.
// `member[c]` lists cluster c's host namespaces with their addresses and MACs.
// With site_rtt the routers meet on per-pair links instead (netns_wan.hpp, built by `wan`);
// `build` then makes the links inside the sites.
void plan_wan(const scenario::Scenario& scenario, const std::string& prefix,
              const std::vector<std::string>& switch_ns,
              const std::vector<std::vector<Member>>& member, NetnsPlan& plan, Builder& build,
              Builder& wan) {
  const auto& network = scenario.network;
  const auto& clusters = network.clusters;
  const bool sites = scenario::has_site_rtt(network);
  const std::string core = prefix + "wan";
  if (!sites) {
    build.add_namespace(core);
    build.add_bridge(core);
  }
  std::map<std::string, int> switch_index;
  for (std::size_t s = 0; s < network.switches.size(); ++s)
    switch_index[network.switches[s].name] = static_cast<int>(s);
  for (int c = 0; c < static_cast<int>(clusters.size()); ++c) {
    const auto& cluster = clusters[static_cast<std::size_t>(c)];
    const int root = switch_index.at(cluster.root_switch);
    const auto& root_switch = network.switches[static_cast<std::size_t>(root)];
    const std::string router = prefix + "r" + std::to_string(c);
    build.add_namespace(router);
    build.add_link({router, kRouterLan, false, router_lan_ip(c), router_mac(c, 0)},
                   {switch_ns[static_cast<std::size_t>(root)], "gw", true, "", ""}, 0,
                   root_switch.host_bandwidth);
    if (!sites)
      build.add_link({router, kRouterWan, false, router_wan_ip(c), router_mac(c, 1)},
                     {core, "r" + std::to_string(c), true, "", ""}, cluster.wan_latency,
                     cluster.wan_bandwidth);
    auto& lines = plan.ns_batch[router];
    for (int d = 0; d < static_cast<int>(clusters.size()); ++d) {
      if (d == c || sites) continue;
      lines.push_back("neigh replace " + router_wan_ip(d) + " lladdr " + router_mac(d, 1) +
                      " dev " + kRouterWan + " nud permanent");
      lines.push_back("route add " + subnet(d) + " via " + router_wan_ip(d) + " dev " + kRouterWan);
    }
    for (const Member& m : member[static_cast<std::size_t>(c)]) {
      lines.push_back("neigh replace " + m.ip + " lladdr " + m.mac + " dev " + kRouterLan +
                      " nud permanent");
      auto& host_lines = plan.ns_batch[m.ns];
      host_lines.push_back("neigh replace " + router_lan_ip(c) + " lladdr " + router_mac(c, 0) +
                           " dev eth0 nud permanent");
      host_lines.push_back("route add default via " + router_lan_ip(c));
      // SYN retransmission as the scenario's model: exponential from the kernel's fixed 1 s
      // initial RTO (linear time-outs off; this kernel's default 4 adds linear retries). Then
      // the site's TCP stack (window scaling, SACK, buffers).
      std::vector<std::string> sysctl{
          "sysctl", "-q", "-w",
          "net.ipv4.tcp_syn_retries=" + std::to_string(network.syn.syn_retries),
          "net.ipv4.tcp_syn_linear_timeouts=0"};
      for (std::string& setting : site_stack_sysctls(network, c))
        sysctl.push_back(std::move(setting));
      plan.ns_exec.push_back({m.ns, std::move(sysctl)});
    }
    // Forwarding; SYN timing too, for the Gateway relays that run here.
    plan.ns_exec.push_back({router,
                            {"sysctl", "-q", "-w", "net.ipv4.ip_forward=1",
                             "net.ipv4.tcp_syn_retries=" + std::to_string(network.syn.syn_retries),
                             "net.ipv4.tcp_syn_linear_timeouts=0"}});
    const auto addresses = [](int d) {
      return std::vector<std::string>{subnet(d), router_wan_ip(d) + "/32"};
    };
    for (auto& rule : router_rules(network, c, addresses)) plan.ns_exec.push_back({router, rule});
  }
  if (sites) plan_site_links(network, prefix, plan, wan);
}

// Switches, hosts, the rendezvous, relays and (with clusters) the WAN.
NetnsPlan plan_switched(const scenario::Scenario& scenario, const std::string& prefix,
                        const NetnsCalibration& calibration) {
  const bool sites = scenario::has_site_rtt(scenario.network);
  if (sites) check_site_wan(scenario);
  const auto& switches = scenario.network.switches;
  const auto& clusters = scenario.network.clusters;
  const std::vector<scenario::HostSlot> hosts = scenario::enumerate_hosts(scenario.network);
  if (hosts.size() + 2 >= 255 * 256)
    throw std::invalid_argument("netns emulation holds at most 65,000 hosts");
  if (clusters.size() > 150)
    throw std::invalid_argument("netns emulation holds at most 150 clusters");
  const std::vector<int> of_switch = scenario::cluster_of_switches(scenario.network);
  NetnsPlan plan;
  plan.prefix = prefix;
  // Site WANs: jumbo frames everywhere; inside a site only veth (its latencies are folded into
  // the pair links, netns_wan.hpp).
  NetnsCalibration wan_calibration = calibration;
  if (sites) wan_calibration.mtu = kJumboMtu;
  NetnsCalibration lan_calibration = wan_calibration;
  if (sites) lan_calibration.min_delay = std::numeric_limits<TimeNs>::max();
  Builder build(plan, lan_calibration);
  Builder wan(plan, wan_calibration);

  std::vector<std::string> switch_ns;
  for (std::size_t s = 0; s < switches.size(); ++s) {
    switch_ns.push_back(prefix + "s" + std::to_string(s));
    build.add_namespace(switch_ns.back());
    build.add_bridge(switch_ns.back());
  }
  // Switch uplinks: the child's port "uplink", the parent's port "down<child>".
  for (std::size_t s = 0; s < switches.size(); ++s) {
    if (switches[s].parent.empty()) continue;
    std::size_t parent = 0;
    while (parent < switches.size() && switches[parent].name != switches[s].parent) ++parent;
    if (parent == switches.size())
      throw std::invalid_argument("switch '" + switches[s].name + "' has unknown parent '" +
                                  switches[s].parent + "'");
    build.add_link({switch_ns[s], "uplink", true, "", ""},
                   {switch_ns[parent], "down" + std::to_string(s), true, "", ""},
                   switches[s].uplink_latency, switches[s].uplink_bandwidth);
  }
  // Members of each cluster (one group, -1, without clusters), for addresses and static ARP.
  std::vector<std::vector<Member>> member(std::max<std::size_t>(1, clusters.size()));
  auto group = [&](int cluster) -> std::vector<Member>& {
    return member[static_cast<std::size_t>(std::max(0, cluster))];
  };
  int next_mac = 1;
  auto add_host = [&](const std::string& name, int sw, int cluster) {
    const auto& spec = switches[static_cast<std::size_t>(sw)];
    const int k = static_cast<int>(group(cluster).size()) + 1;
    Member m{name, lan_address(cluster, k), mac_address(next_mac++)};
    build.add_namespace(name);
    // A slow stack's rate limit (issue 15) on its host link, both ways: a transfer gets the
    // lower limit of its two ends, as in the simulators (per host here, not per connection).
    double bandwidth = spec.host_bandwidth;
    if (cluster >= 0 && clusters[static_cast<std::size_t>(cluster)].tcp.rate_limit > 0)
      bandwidth = std::min(bandwidth, clusters[static_cast<std::size_t>(cluster)].tcp.rate_limit);
    build.add_link(
        {name, "eth0", false, m.ip, m.mac},
        {switch_ns[static_cast<std::size_t>(sw)], "h" + std::to_string(next_mac - 1), true, "", ""},
        spec.host_latency, bandwidth);
    group(cluster).push_back(m);
    return m;
  };
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    const int sw = hosts[h].switch_index;
    const int cluster = of_switch[static_cast<std::size_t>(sw)];
    const Member m = add_host(prefix + "h" + std::to_string(h), sw, cluster);
    plan.host_ns.push_back(m.ns);
    plan.host_ip.push_back(m.ip);
    plan.host_site.push_back(cluster < 0 ? "" : clusters[static_cast<std::size_t>(cluster)].name);
  }
  // The rendezvous: a host of its own on the root switch (of network.rendezvous_cluster),
  // wired like the root's hosts (as in SimGrid).
  int rv_cluster = -1;
  for (std::size_t c = 0; c < clusters.size(); ++c)
    if (clusters[c].name == scenario.network.rendezvous_cluster) rv_cluster = static_cast<int>(c);
  if (!clusters.empty() && rv_cluster < 0)
    throw std::invalid_argument("network.rendezvous_cluster '" +
                                scenario.network.rendezvous_cluster + "' is not a cluster");
  std::size_t root = 0;
  while (root < switches.size() &&
         (rv_cluster < 0
              ? !switches[root].parent.empty()
              : switches[root].name != clusters[static_cast<std::size_t>(rv_cluster)].root_switch))
    ++root;
  if (root == switches.size()) throw std::invalid_argument("the network has no root switch");
  const Member rv = add_host(prefix + "rv", static_cast<int>(root), rv_cluster);
  // Relay hosts: Inside ones on their cluster's root switch (behind the router's policy).
  for (const scenario::RelaySlot& slot : scenario::relay_slots(scenario)) {
    const auto& cluster = clusters[static_cast<std::size_t>(slot.cluster)];
    const std::string router = prefix + "r" + std::to_string(slot.cluster);
    if (slot.at == scenario::RelayPlacement::Gateway) {
      plan.relay_hosts.push_back({slot.host, router, router_wan_ip(slot.cluster), cluster.name});
      continue;
    }
    int sw = 0;
    while (switches[static_cast<std::size_t>(sw)].name != cluster.root_switch) ++sw;
    const Member m =
        add_host(prefix + "x" + std::to_string(plan.relay_hosts.size()), sw, slot.cluster);
    plan.relay_hosts.push_back({slot.host, m.ns, m.ip, cluster.name});
  }
  plan.rendezvous_ns = rv.ns;
  plan.rendezvous_ip = rv.ip;
  if (scenario.network.serial) share_serial_segment(*scenario.network.serial, plan);
  plan.rendezvous_site = rv_cluster < 0 ? "" : clusters[static_cast<std::size_t>(rv_cluster)].name;
  // Static ARP: every host knows every other host of its LAN from the start. ARP is not part of
  // what the scenario describes, and 32 hosts resolving each other at the same moment through
  // delay lines lost resolutions for seconds; packets parked behind an unresolved neighbour then
  // filled the UDP echo socket's send buffer, and probes failed (docs/realnet.md).
  for (const auto& lan : member)
    for (const Member& a : lan) {
      auto& lines = plan.ns_batch[a.ns];
      for (const Member& b : lan)
        if (b.ns != a.ns)
          lines.push_back("neigh replace " + b.ip + " lladdr " + b.mac + " dev eth0 nud permanent");
    }
  if (!clusters.empty()) plan_wan(scenario, prefix, switch_ns, member, plan, build, wan);
  return plan;
}

}  // namespace

double resolve_latency_scale(const scenario::Scenario& scenario, double requested) {
  if (requested == kAutoLatencyScale) return scenario::has_site_rtt(scenario.network) ? 1.0 : 50.0;
  if (requested < 0 || !std::isfinite(requested))
    throw std::invalid_argument("--latency-scale must be a finite number >= 0");
  return requested;
}

NetnsPlan plan_netns(const scenario::Scenario& scenario, const std::string& prefix,
                     const NetnsCalibration& requested) {
  NetnsCalibration calibration = requested;
  calibration.latency_scale = resolve_latency_scale(scenario, requested.latency_scale);
  NetnsPlan plan;
  if (scenario.network.dragonfly) {
    plan = plan_netns_dragonfly(scenario, prefix, calibration);
  } else if (scenario.network.serial &&
             scenario.network.serial->medium == scenario::SerialMedium::Links) {
    plan = plan_netns_serial(scenario, prefix, calibration);
  } else {
    plan = plan_switched(scenario, prefix, calibration);
  }
  plan.latency_scale = calibration.latency_scale;
  pin_congestion_control(plan);
  return plan;
}

void pin_congestion_control(NetnsPlan& plan) {
  const std::string setting = std::string("net.ipv4.tcp_congestion_control=") + kEmulatedCongestion;
  std::vector<std::string> daemon_ns = plan.host_ns;
  daemon_ns.push_back(plan.rendezvous_ns);
  for (const NetnsPlan::RelayHost& relay : plan.relay_hosts) daemon_ns.push_back(relay.ns);
  std::sort(daemon_ns.begin(), daemon_ns.end());
  daemon_ns.erase(std::unique(daemon_ns.begin(), daemon_ns.end()), daemon_ns.end());
  for (const std::string& ns : daemon_ns) {
    if (ns.empty()) continue;
    std::vector<std::string>* sysctl = nullptr;
    bool pinned = false;
    for (auto& [where, argv] : plan.ns_exec) {
      if (where != ns || argv.empty() || argv[0] != "sysctl") continue;
      sysctl = &argv;
      for (const std::string& word : argv)
        pinned = pinned || word.rfind("net.ipv4.tcp_congestion_control=", 0) == 0;
    }
    if (pinned) continue;
    // One process per namespace: added to the host's sysctl command where it has one.
    if (sysctl != nullptr)
      sysctl->push_back(setting);
    else
      plan.ns_exec.push_back({ns, {"sysctl", "-q", "-w", setting}});
  }
}

std::vector<std::string> delay_line_args(const NetnsPlan& plan) {
  std::vector<std::string> args;
  for (const DelayLink& link : plan.delay_links) {
    args.push_back("--link");
    std::string text = link.ns_a + ":" + link.if_a + ":" + link.ns_b + ":" + link.if_b + ":" +
                       std::to_string(link.delay);
    if (link.rate > 0) text += ":" + std::to_string(std::llround(link.rate * 8));
    args.push_back(text);
  }
  // Serial links: a lone small frame's wire time (20-40 us) is of the order of a timer's
  // late wake-up, so the delay line polls the last 40 us before a release (docs/lmmc.md).
  if (std::any_of(plan.delay_links.begin(), plan.delay_links.end(),
                  [](const DelayLink& link) { return link.rate > 0; }))
    args.insert(args.end(), {"--spin-us", "40"});
  return args;
}

std::vector<std::string> teardown_batch(const NetnsPlan& plan) {
  std::vector<std::string> lines;
  // Hosts first, switches last: deleting a namespace deletes its ends of every link.
  for (auto it = plan.namespaces.rbegin(); it != plan.namespaces.rend(); ++it)
    lines.push_back("netns del " + *it);
  return lines;
}

}  // namespace tsunagi::realnet
