// Planning a Dragonfly in namespaces. See netns_dragonfly.hpp.
#include "netns_dragonfly.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "netns_builder.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"

namespace tsunagi::realnet {
namespace {

using scenario::DragonflyLink;
using scenario::DragonflySpec;

constexpr int kMaxRouters = 32 * 256;           // 10.128.0.0 .. 10.159.255.0: /24 each
constexpr int kMaxHostsPerRouter = 250;         // .1 .. .250; .254 is the router
constexpr int kMaxRouterLinks = 16 * 256 * 64;  // /30 each in 172.20.0.0/12

std::string router_ns(const std::string& prefix, int router) {
  return prefix + "s" + std::to_string(router);
}

std::string router_host_ip(int router, int k) {  // k = 1..250 hosts, 254 the router itself
  return "10." + std::to_string(128 + router / 256) + "." + std::to_string(router % 256) + "." +
         std::to_string(k);
}

// Link L's two ends: 172.<20 + L/16384>.<(L/64) % 256>.<4 (L % 64) + 1 or 2>, a /30.
std::string link_ip(int link, int end) {
  return "172." + std::to_string(20 + link / 16384) + "." + std::to_string((link / 64) % 256) +
         "." + std::to_string(4 * (link % 64) + 1 + end);
}

std::string link_if(int link) {
  return "l" + std::to_string(link);
}

// MACs apart from the hosts' (mac_address(1..)): router bridges 0x7a...., link ends 0x7b.....
std::string router_mac(int router) {
  return mac_address(0x7a << 16 | router);
}
std::string link_mac(int link, int end) {
  return mac_address(0x7b << 16 | (2 * link + end));
}

// The router links by their two ends (either order), built once: every router has a route to
// every other router, so looking links up by a scan would cost routers^2 x links.
class LinkIndex {
 public:
  explicit LinkIndex(const std::vector<DragonflyLink>& links) : links_(links) {
    for (std::size_t i = 0; i < links.size(); ++i)
      by_ends_[{links[i].a, links[i].b}] = static_cast<int>(i);
  }
  int between(int a, int b) const {
    const auto it = by_ends_.find({std::min(a, b), std::max(a, b)});
    if (it == by_ends_.end())
      throw std::logic_error("Dragonfly routers " + std::to_string(a) + " and " +
                             std::to_string(b) + " are not adjacent");
    return it->second;
  }
  // `from`'s interface on its link to the adjacent router `to`, and `to`'s address on it: what
  // `from`'s routes through `to` name.
  std::pair<std::string, std::string> hop(int from, int to) const {
    const int l = between(from, to);
    const int to_end = links_[static_cast<std::size_t>(l)].a == to ? 0 : 1;
    return {link_if(l), link_ip(l, to_end)};
  }

 private:
  const std::vector<DragonflyLink>& links_;
  std::map<std::pair<int, int>, int> by_ends_;
};

struct LanHost {
  std::string ns, ip, mac;
};

// Router r's LAN: the bridge with the router's address; static ARP both ways with its hosts,
// and between the hosts (ARP is not part of what the scenario describes: docs/realnet.md).
void wire_lan(NetnsPlan& plan, Builder& build, const std::string& router, int r,
              const std::vector<LanHost>& lan) {
  auto& lines = build.ns(router);
  lines.push_back("link set dev br0 address " + router_mac(r));
  lines.push_back("addr add " + router_host_ip(r, 254) + "/24 dev br0");
  for (const LanHost& host : lan) {
    lines.push_back("neigh replace " + host.ip + " lladdr " + host.mac + " dev br0 nud permanent");
    auto& host_lines = build.ns(host.ns);
    host_lines.push_back("neigh replace " + router_host_ip(r, 254) + " lladdr " + router_mac(r) +
                         " dev eth0 nud permanent");
    host_lines.push_back("route add default via " + router_host_ip(r, 254));
    for (const LanHost& other : lan)
      if (other.ns != host.ns)
        host_lines.push_back("neigh replace " + other.ip + " lladdr " + other.mac +
                             " dev eth0 nud permanent");
  }
  // Forwarding on; reverse-path filtering off, as a route back may take other links.
  plan.ns_exec.push_back({router,
                          {"sysctl", "-q", "-w", "net.ipv4.ip_forward=1",
                           "net.ipv4.conf.all.rp_filter=0", "net.ipv4.conf.default.rp_filter=0"}});
}

void wire_router_links(const DragonflySpec& spec, const std::string& prefix, Builder& build) {
  const std::vector<DragonflyLink> links = scenario::dragonfly_links(spec);
  if (static_cast<int>(links.size()) > kMaxRouterLinks)
    throw std::invalid_argument("netns emulation holds at most " + std::to_string(kMaxRouterLinks) +
                                " Dragonfly router links");
  for (std::size_t i = 0; i < links.size(); ++i) {
    const int l = static_cast<int>(i);
    const auto figures = scenario::link_figures(spec, links[i].kind);
    LinkEnd a{router_ns(prefix, links[i].a), link_if(l), false, link_ip(l, 0), link_mac(l, 0), 30};
    LinkEnd b{router_ns(prefix, links[i].b), link_if(l), false, link_ip(l, 1), link_mac(l, 1), 30};
    build.add_link(a, b, figures.latency, figures.bandwidth);
    build.ns(a.ns).push_back("neigh replace " + b.ip + " lladdr " + b.mac + " dev " + a.ifname +
                             " nud permanent");
    build.ns(b.ns).push_back("neigh replace " + a.ip + " lladdr " + a.mac + " dev " + b.ifname +
                             " nud permanent");
  }
}

// Every router's route to every other router's subnet, next hop by the Dragonfly's rule (the
// kernel then forwards along dragonfly_router_path, as SimGrid and ns-3 route).
void add_routes(const DragonflySpec& spec, const std::string& prefix, Builder& build) {
  const std::vector<DragonflyLink> links = scenario::dragonfly_links(spec);
  const LinkIndex index(links);
  const int routers = scenario::router_count(spec);
  for (int from = 0; from < routers; ++from)
    for (int to = 0; to < routers; ++to) {
      if (from == to) continue;
      const auto [ifname, via] = index.hop(from, scenario::dragonfly_next_router(spec, from, to));
      build.ns(router_ns(prefix, from))
          .push_back("route add " + dragonfly_subnet(to) + " via " + via + " dev " + ifname);
    }
}

}  // namespace

std::string dragonfly_subnet(int router) {
  return router_host_ip(router, 0) + "/24";
}

NetnsPlan plan_netns_dragonfly(const scenario::Scenario& scenario, const std::string& prefix,
                               const NetnsCalibration& calibration) {
  const DragonflySpec& spec = *scenario.network.dragonfly;
  const auto& switches = scenario.network.switches;  // the routers, in router order
  const int routers = scenario::router_count(spec);
  if (routers > kMaxRouters || static_cast<int>(switches.size()) != routers)
    throw std::invalid_argument("netns emulation holds at most " + std::to_string(kMaxRouters) +
                                " Dragonfly routers");
  if (spec.nodes + 1 > kMaxHostsPerRouter)
    throw std::invalid_argument("netns emulation holds at most " +
                                std::to_string(kMaxHostsPerRouter - 1) + " nodes per router");
  NetnsPlan plan;
  plan.prefix = prefix;
  Builder build(plan, calibration);
  for (int r = 0; r < routers; ++r) {
    build.add_namespace(router_ns(prefix, r));
    build.add_bridge(router_ns(prefix, r));
  }
  std::vector<std::vector<LanHost>> lan(static_cast<std::size_t>(routers));
  int next_mac = 1;
  auto add_host = [&](const std::string& name, int r) {
    auto& members = lan[static_cast<std::size_t>(r)];
    const auto& spec_r = switches[static_cast<std::size_t>(r)];
    LanHost host{name, router_host_ip(r, static_cast<int>(members.size()) + 1),
                 mac_address(next_mac++)};
    build.add_namespace(name);
    build.add_link({name, "eth0", false, host.ip, host.mac, 24},
                   {router_ns(prefix, r), "h" + std::to_string(next_mac - 1), true, "", ""},
                   spec_r.host_latency, spec_r.host_bandwidth);
    members.push_back(host);
    return host;
  };
  const auto hosts = scenario::enumerate_hosts(scenario.network);
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    const LanHost host = add_host(prefix + "h" + std::to_string(h), hosts[h].switch_index);
    plan.host_ns.push_back(host.ns);
    plan.host_ip.push_back(host.ip);
    plan.host_site.push_back("");
  }
  // The rendezvous: an extra node on router 0, wired like its nodes (as in SimGrid and ns-3).
  const LanHost rv = add_host(prefix + "rv", 0);
  plan.rendezvous_ns = rv.ns;
  plan.rendezvous_ip = rv.ip;
  for (int r = 0; r < routers; ++r)
    wire_lan(plan, build, router_ns(prefix, r), r, lan[static_cast<std::size_t>(r)]);
  wire_router_links(spec, prefix, build);
  add_routes(spec, prefix, build);
  return plan;
}

}  // namespace tsunagi::realnet
