// The true network of a run as one tree to draw: a switch tree as it is; clusters under a
// virtual WAN core (relays beside their cluster's switches); a Dragonfly's routers under their
// groups under a virtual root; serial-linked nodes under a virtual root. Ranks are the leaves
// under their switch or router. The links no tree holds (a Dragonfly's router links, serial
// links) come beside it.
#pragma once

#include <string>
#include <vector>

#include "report_data.hpp"

namespace tsunagi::runner::report {

// The link from a node up to its parent, as topology.json gives it (issue 33); unknown for
// the edges a drawing adds (a cluster's router to its root switch, a Dragonfly's groups) and
// in topology.json files written before links were.
struct LinkFigures {
  double bandwidth_bps = 0;   // bits/s; 0 = unknown
  long long latency_ns = -1;  // one way; -1 = unknown
  bool known() const { return bandwidth_bps > 0 && latency_ns >= 0; }
};

// "1 Gbps, 5 us": a DOT edge label; "" when unknown.
std::string link_label(const LinkFigures& link);

struct DrawnNode {
  std::string label;
  std::string kind;  // "core", "cluster", "group", "switch", "relay", "rank"
  int rank = -1;     // for kind "rank"
  std::string note;  // tooltip text
  std::vector<int> children;
  double x = 0;  // filled by layout_tree
  int depth = 0;
  LinkFigures link{};  // to the parent
};

// A link between two drawn switches outside the tree (topology.json "links").
struct DrawnLink {
  int a = 0, b = 0;  // node indices
  std::string kind;  // "green", "black", "blue" (Dragonfly), "serial"
  LinkFigures link{};
};

struct DrawnTree {
  std::vector<DrawnNode> nodes;
  int root = -1;  // -1: nothing to draw
  int leaves = 0;
  int depth = 0;  // deepest level
  std::vector<DrawnLink> links;
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
