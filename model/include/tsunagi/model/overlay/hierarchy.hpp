// The hierarchical connection plan (protocol.plan = "hierarchical", issue 30): members connect
// within their switch group, every group's leader (its lowest rank) also connects along a tree
// of leaders that follows the inferred switch tree. Connection ends grow as N x (group size)
// plus two per leader, not N x (group size + groups) as in the topology plan.
//
// The tree of leaders is read off a tree over the groups (SwitchTree: leaves = groups): every
// tree node is represented by the lowest leader beneath it; the representative of a node links
// to the representative of each of its children (where they differ). So a leader has one
// parent (none at the root) and the children of every node it represents. With no tree (or one
// that does not fit the groups) the groups hang off one root: a star around the lowest leader.
//
// Each rank learns only its own Placement (O(group size) for a member; a leader also the ranks
// beneath it, O(N x tree height) summed over all leaders): nothing per process is O(N) except
// at the leaders near the root, which route for everyone below them.
#pragma once

#include <cstdint>
#include <vector>

#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/topology/tree_inference.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

// What one rank knows of the hierarchical plan.
struct Placement {
  std::vector<Rank> group;  // own group, sorted, self included
  wire::LeaderLinks links;  // its leader and, for a leader, its place in the tree of leaders
};

class HierarchyPlan {
 public:
  // `groups` as inferred (normalised as the topology plan does: a rank nobody placed becomes a
  // group of its own); `tree`'s leaves [0, tree.leaves) are `groups` in order. A tree that
  // does not fit (other leaf count, bad parent, a cycle) is replaced by a star.
  HierarchyPlan(int n, const Groups& groups, const SwitchTree* tree);

  int processes() const { return n_; }
  const Groups& groups() const { return groups_; }
  bool star() const { return star_; }     // the given tree was not used
  int height() const { return height_; }  // leader hops from the root to the deepest leader
  // Connection ends of the whole plan (each connection counts at both of its ends).
  std::uint64_t connection_ends() const;
  // What `rank` is told (empty group when rank is out of range).
  Placement placement(Rank rank) const;
  // Its static neighbours: sorted, no self, no duplicates; symmetric over all ranks.
  std::vector<Rank> neighbors(Rank rank) const;

 private:
  void fit_tree(const SwitchTree* tree);
  void choose_representatives();
  void link_leaders();
  void order_leaves();

  int n_ = 0;
  Groups groups_;
  std::vector<int> group_of_;               // rank -> group
  std::vector<int> parent_;                 // tree nodes: groups first, then inner nodes; -1 root
  std::vector<Rank> rep_;                   // node -> lowest leader beneath
  std::vector<int> top_;                    // group -> highest node its leader represents
  std::vector<Rank> leader_parent_;         // group -> parent leader (kNoRank at the root)
  std::vector<std::vector<int>> children_;  // group -> groups whose leaders hang below it
  std::vector<std::uint16_t> up_;           // group -> leader hops to the root
  std::uint16_t height_ = 0;                // the tree of leaders' height
  std::vector<int> leaf_order_;             // groups in depth-first order
  std::vector<int> first_leaf_, end_leaf_;  // node -> its groups' range in leaf_order_
  bool star_ = false;
};

// Ranks of the hierarchical plan's neighbours in a placement (the rule neighbors() applies).
std::vector<Rank> placement_neighbors(Rank self, const Placement& p);

}  // namespace tsunagi
