// Long fat WANs (issue 15): sites joined pair by pair on a backbone. Each site's root switch
// reaches the backbone through its access (wan) link; every pair of sites has a backbone link of
// its own whose latency makes the pair's RTT what the scenario's site_rtt says (paper 004
// Table 2 fits no star). The WAN zone is a full zone with one route per pair of sites.
#include <string>

#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "platform_parts.hpp"

namespace tsunagi::sim::simgrid {

void join_site_backbone(sg4::NetZone* wan, const std::vector<SwitchZones>& roots,
                        const scenario::Network& network, ZoneAssembly& assembly) {
  std::vector<sg4::Link*> access;
  for (const scenario::ClusterSpec& cluster : network.clusters)
    access.push_back(
        duplex_link(wan, cluster.name + ".wan", cluster.wan_bandwidth, cluster.wan_latency));
  const int sites = static_cast<int>(network.clusters.size());
  for (int a = 0; a < sites; ++a) {
    for (int b = a + 1; b < sites; ++b) {
      const auto ia = static_cast<std::size_t>(a);
      const auto ib = static_cast<std::size_t>(b);
      const sg4::Link* backbone =
          duplex_link(wan, network.clusters[ia].name + "-" + network.clusters[ib].name,
                      network.backbone.bandwidth, scenario::backbone_latency(network, a, b));
      // a -> b: a's access link up, the pair's link, b's access link down; b -> a mirrored.
      // Queued: the route names the sites' zones, which join the WAN zone at the end.
      assembly.then(wan, [wan, from = roots[ia], to = roots[ib], up = access[ia], down = access[ib],
                          backbone] {
        wan->add_route(
            from.zone->get_netpoint(), to.zone->get_netpoint(), from.gateway, to.gateway,
            {sg4::LinkInRoute(up, Direction::UP), sg4::LinkInRoute(backbone, Direction::UP),
             sg4::LinkInRoute(down, Direction::DOWN)},
            true);
      });
    }
  }
}

}  // namespace tsunagi::sim::simgrid
