// Turning a scenario's switches into namespace/bridge/veth/TAP commands. See netns_network.hpp.
#include "netns_network.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace tsunagi::realnet {
namespace {

// "10.77.x.y" for the k-th address (k >= 1): one flat /16, bridges forward everything.
std::string address(int k) {
  return "10.77." + std::to_string(k / 256) + "." + std::to_string(k % 256);
}

// "02:77:00:00:x:y" for the k-th address: locally administered, fixed, so every host can be
// given every other host's MAC up front (see plan_netns).
std::string mac_address(int k) {
  char text[32];
  std::snprintf(text, sizeof text, "02:77:00:%02x:%02x:%02x", (k >> 16) & 0xff, (k >> 8) & 0xff,
                k & 0xff);
  return text;
}

std::string bits_per_second(double bytes_per_second) {
  return std::to_string(static_cast<long long>(std::llround(bytes_per_second * 8))) + "bit";
}

struct LinkEnd {
  std::string ns;
  std::string ifname;
  bool bridge_port = false;  // enslaved to br0 in its namespace
  std::string ip;            // host end: the address (with /16)
  std::string mac;           // host end: its fixed MAC
};

class Builder {
 public:
  Builder(NetnsPlan& plan, const NetnsCalibration& calibration)
      : plan_(plan), calibration_(calibration) {}

  void add_namespace(const std::string& name) {
    plan_.namespaces.push_back(name);
    plan_.root_batch.push_back("netns add " + name);
    ns(name).push_back("link set lo up");
  }

  void add_bridge(const std::string& name) {
    // No STP and no forwarding delay: ports forward at once; snooping off: probes are unicast.
    ns(name).push_back("link add br0 type bridge stp_state 0 forward_delay 0 mcast_snooping 0");
    ns(name).push_back("link set br0 addrgenmode none");
    ns(name).push_back("link set br0 up");
  }

  // One link of the scenario between two ends, with its latency and bandwidth.
  void add_link(const LinkEnd& a, const LinkEnd& b, TimeNs latency, double bandwidth) {
    const double scaled = static_cast<double>(latency) * calibration_.latency_scale;
    const auto delay = static_cast<TimeNs>(std::llround(scaled));
    if (delay >= calibration_.min_delay && delay > 0) {
      plan_.delay_links.push_back({a.ns, a.ifname, b.ns, b.ifname, delay});
    } else {
      plan_.root_batch.push_back("link add " + a.ifname + " netns " + a.ns +
                                 " type veth peer name " + b.ifname + " netns " + b.ns);
      ++plan_.veth_links;
    }
    for (const LinkEnd* end : {&a, &b}) {
      auto& lines = ns(end->ns);
      lines.push_back("link set dev " + end->ifname + " addrgenmode none");
      if (end->bridge_port) lines.push_back("link set dev " + end->ifname + " master br0");
      if (!end->mac.empty())
        lines.push_back("link set dev " + end->ifname + " address " + end->mac);
      if (!end->ip.empty()) lines.push_back("addr add " + end->ip + "/16 dev " + end->ifname);
      lines.push_back("link set dev " + end->ifname + " up");
      // tbf: the link's rate on each end's egress; 1 ms of burst (at least 64 KB, so one GSO
      // super-packet passes whole), 50 ms of queue.
      const auto burst = std::max<long long>(64 * 1024, std::llround(bandwidth / 1000));
      plan_.tc_batch[end->ns].push_back("qdisc replace dev " + end->ifname + " root tbf rate " +
                                        bits_per_second(bandwidth) + " burst " +
                                        std::to_string(burst) + " latency 50ms");
    }
  }

 private:
  std::vector<std::string>& ns(const std::string& name) { return plan_.ns_batch[name]; }
  NetnsPlan& plan_;
  const NetnsCalibration& calibration_;
};

}  // namespace

NetnsPlan plan_netns(const scenario::Scenario& scenario, const std::string& prefix,
                     const NetnsCalibration& calibration) {
  if (calibration.latency_scale < 0 || !std::isfinite(calibration.latency_scale))
    throw std::invalid_argument("--latency-scale must be a finite number >= 0");
  const auto& switches = scenario.network.switches;
  const std::vector<scenario::HostSlot> hosts = scenario::enumerate_hosts(scenario.network);
  if (hosts.size() + 2 >= 255 * 256)
    throw std::invalid_argument("netns emulation holds at most 65,000 hosts");
  NetnsPlan plan;
  plan.prefix = prefix;
  Builder build(plan, calibration);

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
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    const auto& sw = switches[static_cast<std::size_t>(hosts[h].switch_index)];
    plan.host_ns.push_back(prefix + "h" + std::to_string(h));
    plan.host_ip.push_back(address(static_cast<int>(h) + 1));
    build.add_namespace(plan.host_ns.back());
    build.add_link({plan.host_ns.back(), "eth0", false, plan.host_ip.back(),
                    mac_address(static_cast<int>(h) + 1)},
                   {switch_ns[static_cast<std::size_t>(hosts[h].switch_index)],
                    "h" + std::to_string(h), true, "", ""},
                   sw.host_latency, sw.host_bandwidth);
  }
  // The rendezvous: a host of its own on the root switch, wired like the root's hosts.
  std::size_t root = 0;
  while (root < switches.size() && !switches[root].parent.empty()) ++root;
  if (root == switches.size()) throw std::invalid_argument("the network has no root switch");
  plan.rendezvous_ns = prefix + "rv";
  plan.rendezvous_ip = address(static_cast<int>(hosts.size()) + 1);
  build.add_namespace(plan.rendezvous_ns);
  build.add_link({plan.rendezvous_ns, "eth0", false, plan.rendezvous_ip,
                  mac_address(static_cast<int>(hosts.size()) + 1)},
                 {switch_ns[root], "rv", true, "", ""}, switches[root].host_latency,
                 switches[root].host_bandwidth);
  // Static ARP: every host knows every other host's MAC from the start. ARP is not part of what
  // the scenario describes, and 32 hosts resolving each other at the same moment through delay
  // lines lost resolutions for seconds; packets parked behind an unresolved neighbour then
  // filled the UDP echo socket's send buffer, and probes failed (docs/realnet.md).
  std::vector<std::string> all_ns = plan.host_ns;
  all_ns.push_back(plan.rendezvous_ns);
  for (std::size_t a = 0; a < all_ns.size(); ++a) {
    auto& lines = plan.ns_batch[all_ns[a]];
    for (std::size_t b = 0; b < all_ns.size(); ++b) {
      if (a == b) continue;
      const int k = static_cast<int>(b) + 1;
      lines.push_back("neigh replace " + address(k) + " lladdr " + mac_address(k) +
                      " dev eth0 nud permanent");
    }
  }
  return plan;
}

std::vector<std::string> delay_line_args(const NetnsPlan& plan) {
  std::vector<std::string> args;
  for (const DelayLink& link : plan.delay_links) {
    args.push_back("--link");
    args.push_back(link.ns_a + ":" + link.if_a + ":" + link.ns_b + ":" + link.if_b + ":" +
                   std::to_string(link.delay));
  }
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
