// RTT probes read off the routes (`[ns3] rtt_probe = "route"`, docs/ns3.md "Probes"): the
// uncontended round trip of a probe between two switches' hosts, 2 x (summed latency + bytes /
// slowest link), as SimGrid's `rtt_probe = "route"` reads its platform. For scenarios whose
// groups rest on exact ties (paper 002's one Aries group: every router link adds the same
// 200 ns), which packet probes among hundreds of nodes break. Read from the spec after
// [network.factors], so it is the network ns-3 simulates; each route is walked when a probe
// asks (a tree's climb or a mesh's next hops), so nothing grows with switches squared. C++17.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

struct Ns3Route {
  TimeNs latency = 0;    // one way, summed over the links
  double bandwidth = 0;  // bytes/s, the slowest link
};

class RouteTable {
 public:
  // Throws std::invalid_argument for WAN clusters and a shared segment (routes of their own).
  explicit RouteTable(const Ns3Spec& spec);

  // From a host of switch a to a host of switch b: both host links, then the uplinks to the
  // common ancestor (a tree) or the mesh's links along its next-hop table.
  Ns3Route route(int a, int b) const;

 private:
  void add_tree_links(int a, int b, Ns3Route& route) const;
  void add_mesh_links(int a, int b, Ns3Route& route) const;

  std::vector<Ns3Switch> switches_;
  std::vector<std::vector<int>> next_;             // the mesh's next hops; empty: a tree
  std::map<std::pair<int, int>, Ns3Route> links_;  // the mesh's links, (low, high) switch
};

// The probe's round trip on `route`: what the prober waits before its answer.
TimeNs route_round_trip(const Ns3Route& route, std::uint32_t bytes);

}  // namespace tsunagi::sim::ns3
