// RTT probes read off the routes (`[ns3] rtt_probe = "route"`, docs/ns3.md "RTT probes"): the
// uncontended round trip of a probe between two switches' hosts, 2 x (summed latency + bytes /
// slowest link), as SimGrid's `rtt_probe = "route"` reads its platform. For scenarios whose
// groups rest on exact ties (paper 002's one Aries group: every router link adds the same
// 200 ns), which packet probes among hundreds of nodes break. Computed from the spec after
// [network.factors], so it is the network ns-3 simulates. C++17, pure.
#pragma once

#include <cstdint>
#include <vector>

#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

struct Ns3Route {
  TimeNs latency = 0;    // one way, summed over the links
  double bandwidth = 0;  // bytes/s, the slowest link
};

// routes[a][b] from a host of switch a to a host of switch b: both host links, then the
// uplinks to the common ancestor (a tree) or the mesh's links along its next-hop table.
std::vector<std::vector<Ns3Route>> switch_routes(const Ns3Spec& spec);

// The probe's round trip on `route`: what the prober waits before its answer.
TimeNs route_round_trip(const Ns3Route& route, std::uint32_t bytes);

}  // namespace tsunagi::sim::ns3
