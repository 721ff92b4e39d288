// Route round-trip times between switches (ground truth for the group-inference condition).
// See scenario.hpp, "switch_route_rtts".
#include <algorithm>
#include <map>
#include <utility>

#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::scenario {
namespace {

// One way from a host of one switch to a host of another: summed latency, slowest link.
struct Route {
  TimeNs latency = 0;
  double bandwidth = 0;
  void add(TimeNs link_latency, double link_bandwidth) {
    latency += link_latency;
    bandwidth = bandwidth > 0 ? std::min(bandwidth, link_bandwidth) : link_bandwidth;
  }
};

TimeNs round_trip(const Route& route, std::uint64_t probe_bytes) {
  const double transfer = static_cast<double>(probe_bytes) / route.bandwidth * 1e9;
  return 2 * (route.latency + static_cast<TimeNs>(transfer));
}

std::vector<int> parents_of(const std::vector<SwitchSpec>& switches) {
  std::vector<int> parent(switches.size(), -1);
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < switches.size(); ++i) index[switches[i].name] = static_cast<int>(i);
  for (std::size_t i = 0; i < switches.size(); ++i) {
    const auto it = index.find(switches[i].parent);
    if (it != index.end()) parent[i] = it->second;
  }
  return parent;
}

int depth_of(const std::vector<int>& parent, int s) {
  int depth = 0;
  for (; parent[static_cast<std::size_t>(s)] >= 0; s = parent[static_cast<std::size_t>(s)]) ++depth;
  return depth;
}

// Host links at both ends, then the uplinks from each side up to the common ancestor.
Route tree_route(const std::vector<SwitchSpec>& switches, const std::vector<int>& parent, int a,
                 int b) {
  Route route;
  route.add(switches[static_cast<std::size_t>(a)].host_latency,
            switches[static_cast<std::size_t>(a)].host_bandwidth);
  route.add(switches[static_cast<std::size_t>(b)].host_latency,
            switches[static_cast<std::size_t>(b)].host_bandwidth);
  int da = depth_of(parent, a), db = depth_of(parent, b);
  auto climb = [&](int& s, int& depth) {
    route.add(switches[static_cast<std::size_t>(s)].uplink_latency,
              switches[static_cast<std::size_t>(s)].uplink_bandwidth);
    s = parent[static_cast<std::size_t>(s)];
    --depth;
  };
  while (da > db) climb(a, da);
  while (db > da) climb(b, db);
  while (a != b) {
    climb(a, da);
    climb(b, db);
  }
  return route;
}

Route dragonfly_route(const DragonflySpec& spec,
                      const std::map<std::pair<int, int>, DragonflyClass>& kind, int a, int b) {
  Route route;
  route.add(spec.node.latency, spec.node.bandwidth);
  route.add(spec.node.latency, spec.node.bandwidth);
  const std::vector<int> path = dragonfly_router_path(spec, a, b);
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const auto ends = std::minmax(path[i], path[i + 1]);
    const DragonflyLinks link = link_figures(spec, kind.at({ends.first, ends.second}));
    route.add(link.latency, link.bandwidth);
  }
  return route;
}

}  // namespace

std::optional<std::vector<std::vector<TimeNs>>> switch_route_rtts(const Network& network,
                                                                  std::uint64_t probe_bytes) {
  if (!network.clusters.empty()) return std::nullopt;
  const std::size_t s = network.switches.size();
  std::vector<std::vector<TimeNs>> rtt(s, std::vector<TimeNs>(s, 0));
  if (network.dragonfly) {
    std::map<std::pair<int, int>, DragonflyClass> kind;
    for (const DragonflyLink& link : dragonfly_links(*network.dragonfly))
      kind[{link.a, link.b}] = link.kind;
    for (std::size_t a = 0; a < s; ++a)
      for (std::size_t b = 0; b < s; ++b)
        rtt[a][b] = round_trip(
            dragonfly_route(*network.dragonfly, kind, static_cast<int>(a), static_cast<int>(b)),
            probe_bytes);
    return rtt;
  }
  const std::vector<int> parent = parents_of(network.switches);
  for (std::size_t a = 0; a < s; ++a)
    for (std::size_t b = 0; b < s; ++b)
      rtt[a][b] =
          round_trip(tree_route(network.switches, parent, static_cast<int>(a), static_cast<int>(b)),
                     probe_bytes);
  return rtt;
}

}  // namespace tsunagi::scenario
