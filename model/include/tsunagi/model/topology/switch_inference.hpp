// Which peers share this node's switch, judged from RTTs alone (paper 000 §2.1), extended to
// hosts that run several processes. Pure functions over measurement tables: the core never sees
// the ground truth, only the minimum RTT per peer that the backend measured.
//
// Known ambiguities (RTTs alone cannot resolve them; the mutual rule of combine_views and the
// config knobs are the only defences):
//  * One multi-process host per switch looks like one switch. The row [host-mates, other
//    switches] has the same shape as [host-mates, same-switch peers], and the host rule reads it
//    as the latter, so such a node claims the next step up as its switch. Several such switches
//    whose nodes all claim each other get merged.
//  * Likewise, any row whose first step is "steep" (near side <= colocated_ratio x far side) is
//    read as a host boundary. In networks where other switches are more than 1/colocated_ratio
//    times farther than the own switch (e.g. LAN vs WAN), set colocated_ratio to 0: only
//    exactly-zero RTTs are then taken as host-mates.
//  * In a switch hierarchy the paper's rule cuts at the largest jump. Jumps within
//    tie_tolerance of the largest are ties and the innermost wins, so equal steps per level are
//    safe; if a higher level adds more RTT than the first hop by more than that, sibling
//    switches are merged. Paper 000 Fig. 4 has the first jump as the largest one.
//    docs/tree-inference.md ("When group inference is right") states the exact condition.
#pragma once

#include <cstddef>
#include <vector>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

struct RttSample {
  Rank peer;
  TimeNs rtt;
};

struct SwitchView {
  std::vector<Rank> near;       // peers judged on this node's switch, sorted asc, excludes self
  bool colocated_step = false;  // true when the first cut was a host boundary
};

// Where the paper's rule cuts a sorted RTT row: peers [0, index] are near, (index, end) far.
struct RttCut {
  std::size_t index = 0;
  bool significant = false;  // the jump is large enough to mean a different switch
};

struct CutRule {
  double min_jump_ratio = 0.3;  // the RTT after the cut must be >= (1 + this) x the one before
  double tie_tolerance = 0;     // changes within this share of the largest are ties
};

// The paper's cut rule on an ascending RTT list: the largest change between consecutive gaps,
// except that of several changes within rule.tie_tolerance of the largest the innermost
// significant one wins (docs/tree-inference.md, "When group inference is right"). With fewer
// than two entries there is no cut.
RttCut find_rtt_cut(const std::vector<TimeNs>& sorted_rtts, const CutRule& rule);

// One node's view of its own switch from its RTT row (one entry per peer; if a peer appears
// several times its minimum RTT is used, like the paper's min over K samples). Entries with a
// negative rank are ignored. The row must not contain the node itself.
SwitchView infer_own_switch(std::vector<RttSample> row, const InferenceConfig& cfg);

// Combines every node's near set into switch groups. Each view first keeps only the peers that
// a strict majority of the node and the peers it mutually claims also name (evidence across
// nodes: one node cut too far out is outvoted by its switch-mates); then u and v are linked
// only if each names the other (a one-sided claim is ignored), and groups are the connected
// components. Ranks are
// [0, n); out-of-range ranks in near sets are ignored, missing near sets count as empty. Every
// rank ends up in exactly one group; each group is sorted, groups ordered by smallest rank.
Groups combine_views(int n, const std::vector<std::vector<Rank>>& near_sets);

}  // namespace tsunagi
