// The true network of a run as one tree to draw: a switch tree as it is; clusters under a
// virtual WAN core (relays beside their cluster's switches); a Dragonfly's routers under their
// groups under a virtual root. Ranks are the leaves under their switch or router.
#pragma once

#include <string>
#include <vector>

#include "report_data.hpp"

namespace tsunagi::runner::report {

struct DrawnNode {
  std::string label;
  std::string kind;  // "core", "cluster", "group", "switch", "relay", "rank"
  int rank = -1;     // for kind "rank"
  std::string note;  // tooltip text
  std::vector<int> children;
  double x = 0;  // filled by layout_tree
  int depth = 0;
};

struct DrawnTree {
  std::vector<DrawnNode> nodes;
  int root = -1;  // -1: nothing to draw
  int leaves = 0;
  int depth = 0;  // deepest level
  // Rank -> index of its true group (its switch), for scoring each rank's inferred group.
  std::vector<int> true_switch_of_rank;
};

// Built from topology.json; an empty tree (root -1) when the run has none.
DrawnTree true_tree(const RunFiles& run);

// Assigns x (leaf slots of width `unit`, parents centred over their children) and depth.
void layout_tree(DrawnTree& tree, double unit, double left);

// For each rank: does its inferred group hold exactly the ranks of its true switch? Empty when
// nothing was inferred.
std::vector<bool> rank_mismatches(const RunFiles& run, const DrawnTree& tree);

// Whether the rendezvous inferred groups at all (inference.inferred is not false and
// inference.groups is a non-empty list).
bool groups_inferred(const RunFiles& run);

}  // namespace tsunagi::runner::report
