// How the switches are joined, from throughput interference (paper 000 §2.2, Fig. 1).
//
// Transfers run between representatives of two switch groups, alone and two at a time. Two
// transfers *interfere* when running together slows one of them down: their paths share a link
// that is a bottleneck. R is the set of pairs that do not interfere. The tree is built bottom-up
// from the leaf switches (the inferred groups): X holds the switches not yet placed.
//
//   |X| = 1  that switch is the root.
//   |X| = 2  join them. (The paper draws an edge; we draw a root switch between them, which no
//            measurement can tell apart.)
//   |X| = 3  if some (ab, ac) is in R, a is the parent of b and c; else a fresh switch is.
//   else     merge(X, R): sets S_i of X that are siblings, each gets a fresh parent switch,
//            which replaces them in X; R is renamed to the new switches (update(R, T)).
//
// The paper defines merge by "(uv, wx) ∈ R for all distinct u, v, w, x in S_i", which says
// nothing about sets of two or three. We use the same test in the form that decides every pair:
// u and v are siblings iff u->v and v->u interfere with no transfer w->x between two other
// members of X. A transfer that leaves u's parent shares that parent's uplink with any transfer
// out of a sibling subtree, so non-siblings are caught as long as some other member of X sits
// under u's or v's parent. Siblings form classes (transitive closure). A class becomes a switch
// only when its members share an uplink (transfers out of two members to two outside switches
// always interfere); a class still missing a sibling subtree that is not merged yet waits for it.
//
// Renaming is kept implicit: a relation between current switches holds when it holds for some
// measured transfers between leaves beneath them (the union of update(R, T) over all steps).
// Assumptions (docs/tree-inference.md): hosts hang off leaf switches only; every shared link on
// a path is a bottleneck that halves two transfers (uplinks slower than 2 x host links); no
// other traffic while probing.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace tsunagi {

struct TransferPath {
  int from = 0;  // switch (group) index of the sender
  int to = 0;    // switch (group) index of the receiver
  bool operator==(const TransferPath&) const = default;
};

using PathPair = std::pair<TransferPath, TransferPath>;

// The measured part of R over `switches` leaf switches.
class InterferenceRelation {
 public:
  explicit InterferenceRelation(int switches);
  int switches() const { return switches_; }
  void record(TransferPath a, TransferPath b, bool non_interfering);  // symmetric in a, b
  // true: measured, no interference; false: measured, interference; nullopt: not measured.
  std::optional<bool> non_interfering(TransferPath a, TransferPath b) const;

 private:
  std::size_t index(TransferPath a, TransferPath b) const;
  int switches_;
  std::vector<std::uint8_t> cells_;  // 0 unknown, 1 interfere, 2 no interference
};

// Whether two transfers run together slowed each other: either one fell below
// (1 - drop) of its rate alone.
bool transfers_interfere(double alone_a, double together_a, double alone_b, double together_b,
                         double drop);

// Every ordered path between two different switches, each probed alone.
std::vector<TransferPath> single_probe_paths(int switches);
// Every unordered pair of paths the algorithm reads: four distinct switches, or a shared
// sender with two distinct receivers (the |X| = 3 test).
std::vector<PathPair> pair_probe_paths(int switches);

struct SwitchTree {
  int leaves = 0;           // nodes [0, leaves) are the leaf switches (groups) in group order
  std::vector<int> parent;  // parent node of each node; -1 for the root
  bool complete = true;     // false: merge found no siblings; the rest hang off one root
  int root() const;
};

SwitchTree infer_switch_tree(const InterferenceRelation& relation);

// For every node, the sorted leaves beneath it (itself for a leaf).
std::vector<std::vector<int>> leaves_beneath(const SwitchTree& tree);

// Whether two trees over the same leaves have the same leaf sets under their switches (inner
// switches are compared by what hangs below them, not by name; a switch with one child adds
// nothing).
bool same_leaf_sets(const SwitchTree& a, const SwitchTree& b);

// Whether two trees over the same leaves are the same once the root is forgotten: every link
// between switches splits the leaves in two, and both trees have the same splits. This is what
// interference can see: moving the root along a link changes no path, so no measurement can
// place it (docs/tree-inference.md).
bool same_unrooted_tree(const SwitchTree& a, const SwitchTree& b);

// The relation a tree implies when every link is a bottleneck: two transfers interfere iff
// their paths share a link in the same direction. For tests and for saying which trees the
// method can resolve at all; the core never sees a true tree.
InterferenceRelation ideal_relation(const SwitchTree& tree);

}  // namespace tsunagi
