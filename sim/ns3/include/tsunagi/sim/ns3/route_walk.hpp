// The switches packets cross in the ns-3 network of a spec, read off ns-3's own forwarding
// state: for tests that hold the network to the scenario's routes (a Dragonfly's routes must
// be SimGrid's, docs/ns3.md). C++17-clean like ns3_spec.hpp.
#pragma once

#include <utility>
#include <vector>

#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

// For each (from, to) pair of host indices (into spec.hosts): the switches a packet from `from`
// to `to` crosses, in order, as indices into spec.switches. Builds the network without running
// it: ns-3's node list is global, so call this at most once per OS process and do not run a
// simulation in that process afterwards. Throws std::runtime_error when a packet has no route
// or loops.
std::vector<std::vector<int>> switch_paths(const Ns3Spec& spec,
                                           const std::vector<std::pair<int, int>>& host_pairs);

}  // namespace tsunagi::sim::ns3
