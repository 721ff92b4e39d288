// The scalable tree method: the switch tree from RTTs between one representative per group.
//
// G representatives measure each other (G(G-1) probes instead of the exact method's ~G^4/2
// transfer pairs). Clusters are joined bottom-up: every round, all pairs of clusters whose
// distance (the smallest RTT between their members) is within `tolerance` of the round's
// smallest distance are joined, each connected set under one fresh switch. This recovers the
// tree when RTT grows with the height of the switch two groups meet under and is the same for
// every pair that meets there (an ultrametric: leaves at one depth, one latency per level, as
// in generated regular trees). docs/tree-inference.md says where that fails.
#pragma once

#include <vector>

#include "tsunagi/model/topology/tree_inference.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

// `rtt[i][j]`: RTT between representatives of groups i and j (i != j; < 0 = not measured,
// read as unreachable-far). Symmetric use: the smaller of rtt[i][j] and rtt[j][i] counts.
SwitchTree tree_from_rtts(const std::vector<std::vector<TimeNs>>& rtt, double tolerance);

}  // namespace tsunagi
