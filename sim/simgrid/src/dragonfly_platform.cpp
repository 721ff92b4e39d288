// A Dragonfly (issue 13) as SimGrid zones: every router a star zone holding its nodes (as a
// tree's leaf switch holds its hosts), the routers' zones children of one Full zone whose
// routes are the router links of scenario::dragonfly_router_path. docs/simgrid.md, "Dragonfly",
// says why this is built here rather than with SimGrid's own DragonflyZone.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <simgrid/s4u/Host.hpp>

#include "platform_parts.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"

namespace tsunagi::sim::simgrid {
namespace {

using LinkMap = std::map<std::pair<int, int>, sg4::Link*>;

// "green:g0.c0.r1-g0.c0.r2": class and the two routers, lower index first.
std::string link_name(const scenario::DragonflySpec& spec, const scenario::DragonflyLink& link) {
  return std::string(scenario::to_string(link.kind)) + ":" +
         scenario::router_name(scenario::router_coords(spec, link.a)) + "-" +
         scenario::router_name(scenario::router_coords(spec, link.b));
}

// Parallel links of a class are one link of count x bandwidth, as in SimGrid's zone.
LinkMap create_router_links(sg4::NetZone* top, const scenario::DragonflySpec& spec) {
  LinkMap links;
  for (const scenario::DragonflyLink& link : scenario::dragonfly_links(spec)) {
    const scenario::DragonflyLinks figures = scenario::link_figures(spec, link.kind);
    links[{link.a, link.b}] =
        duplex_link(top, link_name(spec, link), figures.bandwidth, figures.latency);
  }
  return links;
}

// The router links of the route from router a to router b. Going up the router numbers is a
// link's UP direction, as in SimGrid's zone.
std::vector<sg4::LinkInRoute> route_links(const scenario::DragonflySpec& spec, const LinkMap& links,
                                          int a, int b) {
  const std::vector<int> path = scenario::dragonfly_router_path(spec, a, b);
  std::vector<sg4::LinkInRoute> out;
  for (std::size_t i = 1; i < path.size(); ++i) {
    const int from = path[i - 1];
    const int to = path[i];
    const auto it = links.find({std::min(from, to), std::max(from, to)});
    if (it == links.end())
      throw std::logic_error("dragonfly: routers " + std::to_string(from) + " and " +
                             std::to_string(to) + " have no link between them");
    out.emplace_back(it->second, from < to ? Direction::UP : Direction::DOWN);
  }
  return out;
}

// Routes are not symmetric (a route leaves its group through the source chassis's router and
// enters the target group at chassis 0), so every ordered pair gets its own.
void add_router_routes(sg4::NetZone* top, const scenario::DragonflySpec& spec,
                       const std::vector<SwitchZones>& routers, const LinkMap& links) {
  for (std::size_t a = 0; a < routers.size(); ++a) {
    for (std::size_t b = 0; b < routers.size(); ++b) {
      if (a == b) continue;
      top->add_route(routers[a].zone->get_netpoint(), routers[b].zone->get_netpoint(),
                     routers[a].gateway, routers[b].gateway,
                     route_links(spec, links, static_cast<int>(a), static_cast<int>(b)), false);
    }
  }
}

}  // namespace

Platform build_dragonfly_platform(const scenario::Network& network,
                                  const PlatformOptions& options) {
  const scenario::DragonflySpec& spec = *network.dragonfly;
  ZoneAssembly assembly;
  sg4::NetZone* top = assembly.full_zone("dragonfly");
  const std::vector<scenario::HostSlot> slots = scenario::enumerate_hosts(network);
  std::vector<SwitchZones> routers;
  routers.reserve(network.switches.size());
  Platform platform;
  std::size_t next_slot = 0;
  for (std::size_t r = 0; r < network.switches.size(); ++r) {
    const scenario::SwitchSpec& router = network.switches[r];
    routers.push_back(create_switch(router, nullptr, false, top, assembly));
    next_slot = add_switch_hosts(routers[r], r, network, slots, next_slot, options, platform);
    // The rendezvous is an extra node on router 0, wired like its nodes (as on a tree's root).
    if (r == 0)
      platform.rendezvous = add_host(routers[r], kRendezvousHost, router,
                                     network.loopback_bandwidth, network.loopback_latency, options);
  }
  const LinkMap links = create_router_links(top, spec);
  // The routes name the routers' zones, which join `top` first (a Full zone sizes its table by
  // its components at the first route).
  assembly.then(top, [&] { add_router_routes(top, spec, routers, links); });
  assembly.finish(all_hosts(platform));
  return platform;
}

}  // namespace tsunagi::sim::simgrid
