// Builds the SimGrid platform of a switched cluster from the scenario's switch tree, in C++.
//
// Each switch is a star zone holding a leaf star zone for its own hosts (with the switch's
// gateway router) and the zones of its child switches; see docs/simgrid.md for why hosts never
// share a zone with child zones. A route between two hosts crosses exactly: the source's host
// link, the uplinks from its switch up to the common ancestor switch, the uplinks down to the
// destination's switch, and the destination's host link. Same-host traffic uses the host's own
// loopback link.
#pragma once

#include <vector>

#include <simgrid/forward.h>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::sim::simgrid {

namespace sg4 = ::simgrid::s4u;

struct PlatformOptions {
  double host_speed = 1e9;  // flop/s of each core
  int cores_per_host = 1;   // one core per process slot, so co-located computations don't share
};

struct Platform {
  std::vector<sg4::Host*> hosts;    // in scenario::enumerate_hosts order
  sg4::Host* rendezvous = nullptr;  // extra host on the root switch (of the rendezvous cluster)
  std::vector<sg4::Host*> relays;   // in scenario::relay_slots order
};

// With clusters (a WAN): each cluster's switch tree as above, its root switch's gateway acting
// as the cluster's router, joined to a WAN core star zone by the cluster's WAN link; a route
// between clusters crosses both clusters' WAN links. Relay hosts (inside or gateway) hang off
// their cluster's root switch like its hosts; a gateway relay differs only in the policies it
// meets (scenario::policy_outcome), not in its wiring.
//
// Creates every zone, host, link and route. Call once, after the Engine is configured and
// before it runs. Throws std::invalid_argument when the switch list is not a tree whose
// parents come before their children.
Platform build_platform(const scenario::Network& network, const PlatformOptions& options,
                        const std::vector<scenario::RelaySlot>& relays = {});

// Index of the root switch (the one without a parent); throws when there is not exactly one.
std::size_t root_switch_index(const scenario::Network& network);

}  // namespace tsunagi::sim::simgrid
