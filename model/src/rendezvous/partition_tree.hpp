// The switch tree from the RTTs the partition rounds measured anyway (tree = "partition",
// docs/tree-inference.md "The tree from the partition data"): no extra probes. Every measured
// pair of ranks in two different groups is a link between the groups; the tree joins clusters
// bottom-up as tree = "rtt" does (single linkage, all links within `tolerance` of the round's
// smallest join their clusters under one fresh switch), but over the sparse links instead of a
// G x G table. Right where tree = "rtt" is right (an ultrametric) provided the links connect
// the children of every switch among themselves: the chain of rank neighbours does that when
// ranks are placed in blocks in the tree's order, and a leader's row over its part does it
// for the switches around it.
#pragma once

#include <vector>

#include "tsunagi/model/topology/tree_inference.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

struct GroupLink {
  int a = 0;  // group indices, a != b
  int b = 0;
  TimeNs rtt = 0;
};

// A rooted tree over `leaves` groups (leaf i = group i). Groups no link reaches hang off one
// extra root with `complete` false; the tree is always rooted and reaches every group.
SwitchTree tree_from_links(int leaves, std::vector<GroupLink> links, double tolerance);

// The same tree with leaf i renamed new_index[i] (a permutation of the leaves); switches keep
// their numbers.
SwitchTree relabel_leaves(const SwitchTree& tree, const std::vector<int>& new_index);

// The same tree with its switches renumbered in an order that depends only on the shape: by
// the lowest leaf beneath, the larger switch first. The rounds join clusters in the order the
// leaders' answers arrived, which differs between backends; the numbers in the trace must not.
SwitchTree canonical_switch_numbers(const SwitchTree& tree);

// The links between groups from rank-level samples (a, b, rtt): the smallest RTT per pair of
// groups; samples inside one group or with a rank outside every group are dropped.
struct RankSample {
  Rank a = kNoRank;
  Rank b = kNoRank;
  TimeNs rtt = 0;
};
std::vector<GroupLink> group_links(const Groups& groups, std::size_t ranks,
                                   const std::vector<RankSample>& samples);

}  // namespace tsunagi
