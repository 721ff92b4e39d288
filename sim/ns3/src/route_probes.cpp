// Route round trips for `[ns3] rtt_probe = "route"`. See route_probes.hpp.
#include "route_probes.hpp"

#include <algorithm>
#include <stdexcept>

namespace tsunagi::sim::ns3 {
namespace {

void add(Ns3Route& route, TimeNs latency, double bandwidth) {
  route.latency += latency;
  route.bandwidth = route.bandwidth > 0 ? std::min(route.bandwidth, bandwidth) : bandwidth;
}

}  // namespace

RouteTable::RouteTable(const Ns3Spec& spec) : switches_(spec.switches), next_(spec.mesh.next) {
  if (!spec.clusters.empty() || spec.shared_segment)
    throw std::invalid_argument(
        "[ns3] rtt_probe = \"route\" reads switch trees and meshes only; WAN clusters and a "
        "shared segment take rtt_probe = \"packets\"");
  for (const Ns3SwitchLink& link : spec.mesh.links)
    links_[std::minmax(link.a, link.b)] = Ns3Route{link.latency, link.bandwidth};
}

Ns3Route RouteTable::route(int a, int b) const {
  Ns3Route route;
  const Ns3Switch& from = switches_.at(static_cast<std::size_t>(a));
  const Ns3Switch& to = switches_.at(static_cast<std::size_t>(b));
  add(route, from.host_latency, from.host_bandwidth);
  add(route, to.host_latency, to.host_bandwidth);
  if (next_.empty())
    add_tree_links(a, b, route);
  else
    add_mesh_links(a, b, route);
  return route;
}

void RouteTable::add_tree_links(int a, int b, Ns3Route& route) const {
  const auto depth_of = [this](int s) {
    int depth = 0;
    for (; switches_[static_cast<std::size_t>(s)].parent >= 0;
         s = switches_[static_cast<std::size_t>(s)].parent)
      ++depth;
    return depth;
  };
  int da = depth_of(a), db = depth_of(b);
  const auto climb = [&](int& s, int& depth) {
    const Ns3Switch& sw = switches_[static_cast<std::size_t>(s)];
    add(route, sw.uplink_latency, sw.uplink_bandwidth);
    s = sw.parent;
    --depth;
  };
  while (da > db) climb(a, da);
  while (db > da) climb(b, db);
  while (a != b) {
    if (da == 0) throw std::invalid_argument("ns3 route probes: switches of two trees");
    climb(a, da);
    climb(b, db);
  }
}

void RouteTable::add_mesh_links(int a, int b, Ns3Route& route) const {
  for (std::size_t hops = 0; a != b; ++hops) {
    const int next = next_[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
    const auto link = links_.find(std::minmax(a, next));
    if (next < 0 || link == links_.end() || hops > switches_.size())
      throw std::invalid_argument("ns3 route probes: the mesh has no route between two switches");
    add(route, link->second.latency, link->second.bandwidth);
    a = next;
  }
}

TimeNs route_round_trip(const Ns3Route& route, std::uint32_t bytes) {
  const double transfer = static_cast<double>(bytes) / route.bandwidth * 1e9;
  return 2 * (route.latency + static_cast<TimeNs>(transfer));
}

}  // namespace tsunagi::sim::ns3
