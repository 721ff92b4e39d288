// Router-to-router links of sites with per-pair RTTs (mesh.hpp, build_site_links).
#include <ns3/internet-module.h>

#include "address_plan.hpp"
#include "mesh.hpp"
#include "p2p_links.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

namespace {

// Routes every switch block of cluster `to` from `router` through `gateway` on `interface`.
void route_cluster(const Ns3Spec& spec, const n3::Ptr<n3::Node>& router, int to,
                   n3::Ipv4Address gateway, std::uint32_t interface) {
  const n3::Ptr<n3::Ipv4StaticRouting> routes = routing_of(router);
  for (std::size_t s = 0; s < spec.switches.size(); ++s)
    if (spec.switches[s].cluster == to)
      routes->AddNetworkRouteTo(plan::block_of(s), n3::Ipv4Mask("255.255.240.0"), gateway,
                                interface);
}

}  // namespace

void build_site_links(const Ns3Spec& spec, const std::vector<n3::Ptr<n3::Node>>& switches) {
  for (std::size_t k = 0; k < spec.site_links.size(); ++k) {
    const Ns3SwitchLink& link = spec.site_links[k];
    const auto root = [&](int cluster) {
      return switches.at(static_cast<std::size_t>(
          spec.clusters.at(static_cast<std::size_t>(cluster)).root_switch));
    };
    const n3::NetDeviceContainer devices =
        p2p_link(root(link.a), root(link.b), link.bandwidth, link.latency);
    const std::uint32_t a_side = add_interface(devices.Get(0), plan::mesh_link(k, 1));
    const std::uint32_t b_side = add_interface(devices.Get(1), plan::mesh_link(k, 2));
    route_cluster(spec, root(link.a), link.b, plan::mesh_link(k, 2), a_side);
    route_cluster(spec, root(link.b), link.a, plan::mesh_link(k, 1), b_side);
  }
}

}  // namespace tsunagi::sim::ns3
