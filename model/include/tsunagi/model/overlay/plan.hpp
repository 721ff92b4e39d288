// The static connection plan (paper 000 §3.1): which peers a node connects to at start-up.
// Every node computes its own row independently from shared inputs (n, groups, seed), so the
// plan needs no coordination, and it is symmetric: if u plans v, v plans u. Whoever of the two
// has the smaller rank opens the connection (the caller's rule, not this file's).
#pragma once

#include <cstdint>
#include <vector>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

// Neighbours of `self` in the static connection plan; sorted, no self, no duplicates.
// Symmetric: v in plan_neighbors(u) iff u in plan_neighbors(v). Every plan but Relay is connected.
//
// AllToAll      every other rank.
// TopologyAware every rank of self's own group; for every other group B, with self at index i
//               of its group A: B[i % |B|], plus every w at index j of B with A[j % |A|] == self
//               (the reverse of w's own rule). Gateways are spread by index, so no node carries
//               all traffic to another switch. Ranks missing from `groups` (or listed twice, or
//               out of [0, n)) are handled as if each missing rank were its own singleton group;
//               members keep the order `groups` gives them.
// RandomK       the ring {u, u+1 mod n} always (so the plan is connected), and every other pair
//               {u, v} independently with probability (random_k - 2) / (n - 3), decided by
//               hashing (seed, min(u,v), max(u,v)) — so both ends agree without talking, in
//               O(n) per node. Expected degree is exactly random_k (clamped to [2, n-1]).
// Relay         every other rank of self's own group (the groups are the sites); the plan is
//               connected only within a site: relays join the sites (docs/relay.md).
//
// Returns nothing when self is not in [0, n).
std::vector<Rank> plan_neighbors(PlanKind kind, Rank self, int n, const Groups& groups,
                                 int random_k, std::uint64_t seed);

// The groups TopologyAware actually uses: in-range ranks only, each rank once (first mention
// wins), empty groups dropped, then one singleton group per missing rank in rank order.
Groups normalise_plan_groups(int n, const Groups& groups);

// Whether RandomK makes {u, v} an edge (u != v, both in [0, n)); symmetric in u and v.
bool random_plan_edge(Rank u, Rank v, int n, int random_k, std::uint64_t seed);

}  // namespace tsunagi
