// Route round trips for `[ns3] rtt_probe = "route"`. See route_probes.hpp.
#include "route_probes.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

namespace tsunagi::sim::ns3 {
namespace {

void add(Ns3Route& route, TimeNs latency, double bandwidth) {
  route.latency += latency;
  route.bandwidth = route.bandwidth > 0 ? std::min(route.bandwidth, bandwidth) : bandwidth;
}

int depth_of(const Ns3Spec& spec, int s) {
  int depth = 0;
  for (; spec.switches[static_cast<std::size_t>(s)].parent >= 0;
       s = spec.switches[static_cast<std::size_t>(s)].parent)
    ++depth;
  return depth;
}

void add_tree_links(const Ns3Spec& spec, int a, int b, Ns3Route& route) {
  int da = depth_of(spec, a), db = depth_of(spec, b);
  const auto climb = [&](int& s, int& depth) {
    const Ns3Switch& sw = spec.switches[static_cast<std::size_t>(s)];
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

void add_mesh_links(const Ns3Spec& spec, const std::map<std::pair<int, int>, Ns3Route>& links,
                    int a, int b, Ns3Route& route) {
  for (int hops = 0; a != b; ++hops) {
    const int next = spec.mesh.next[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
    const auto link = links.find(std::minmax(a, next));
    if (next < 0 || link == links.end() || hops > static_cast<int>(spec.switches.size()))
      throw std::invalid_argument("ns3 route probes: the mesh has no route between two switches");
    add(route, link->second.latency, link->second.bandwidth);
    a = next;
  }
}

}  // namespace

std::vector<std::vector<Ns3Route>> switch_routes(const Ns3Spec& spec) {
  if (!spec.clusters.empty() || spec.shared_segment)
    throw std::invalid_argument(
        "[ns3] rtt_probe = \"route\" reads switch trees and meshes only; WAN clusters and a "
        "shared segment take rtt_probe = \"packets\"");
  std::map<std::pair<int, int>, Ns3Route> links;
  for (const Ns3SwitchLink& link : spec.mesh.links)
    links[std::minmax(link.a, link.b)] = Ns3Route{link.latency, link.bandwidth};
  const std::size_t n = spec.switches.size();
  std::vector<std::vector<Ns3Route>> routes(n, std::vector<Ns3Route>(n));
  for (std::size_t a = 0; a < n; ++a) {
    for (std::size_t b = 0; b < n; ++b) {
      Ns3Route& route = routes[a][b];
      add(route, spec.switches[a].host_latency, spec.switches[a].host_bandwidth);
      add(route, spec.switches[b].host_latency, spec.switches[b].host_bandwidth);
      if (spec.mesh.empty())
        add_tree_links(spec, static_cast<int>(a), static_cast<int>(b), route);
      else
        add_mesh_links(spec, links, static_cast<int>(a), static_cast<int>(b), route);
    }
  }
  return routes;
}

TimeNs route_round_trip(const Ns3Route& route, std::uint32_t bytes) {
  const double transfer = static_cast<double>(bytes) / route.bandwidth * 1e9;
  return 2 * (route.latency + static_cast<TimeNs>(transfer));
}

}  // namespace tsunagi::sim::ns3
