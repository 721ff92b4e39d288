// Tree inference from throughput interference (paper 000 Fig. 1) on hand-made trees, on the
// cases where the method cannot work, and on random trees.
#include <catch2/catch.hpp>

#include "tsunagi/model/rng.hpp"
#include "tsunagi/model/topology/tree_inference.hpp"

using namespace tsunagi;

namespace {

SwitchTree tree_of(int leaves, std::vector<int> parent) {
  SwitchTree t;
  t.leaves = leaves;
  t.parent = std::move(parent);
  return t;
}

// Random tree: inner switches with 2..max_fanout children, leaves only at the bottom of each
// branch, depth up to `depth` below the root.
SwitchTree random_tree(Rng& rng, int depth, int max_fanout) {
  struct Node {
    int parent;
    int level;
  };
  std::vector<Node> inner{{-1, 0}};
  std::vector<int> leaf_parents;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    const int children =
        2 + static_cast<int>(rng.uniform(static_cast<std::uint64_t>(max_fanout - 1)));
    for (int c = 0; c < children; ++c) {
      const bool deeper = inner[i].level + 1 < depth && rng.uniform01() < 0.5;
      if (deeper)
        inner.push_back({static_cast<int>(i), inner[i].level + 1});
      else
        leaf_parents.push_back(static_cast<int>(i));
    }
  }
  const int leaves = static_cast<int>(leaf_parents.size());
  std::vector<int> parent;
  for (int p : leaf_parents) parent.push_back(leaves + p);
  for (const Node& n : inner) parent.push_back(n.parent < 0 ? -1 : leaves + n.parent);
  return tree_of(leaves, parent);
}

}  // namespace

TEST_CASE("tree: the kaneda-112 hierarchy (root, two aggregation switches, four leaves each)",
          "[tree]") {
  // leaves 0-3 under node 9, leaves 4-7 under node 10, both under root 8.
  const SwitchTree truth = tree_of(8, {9, 9, 9, 9, 10, 10, 10, 10, -1, 8, 8});
  const SwitchTree inferred = infer_switch_tree(ideal_relation(truth));
  CHECK(inferred.complete);
  CHECK(same_leaf_sets(inferred, truth));
}

TEST_CASE("tree: flat, one switch over every leaf", "[tree]") {
  const SwitchTree truth = tree_of(5, {5, 5, 5, 5, 5, -1});
  CHECK(same_leaf_sets(infer_switch_tree(ideal_relation(truth)), truth));
}

TEST_CASE("tree: two or three switches", "[tree]") {
  const SwitchTree two = tree_of(2, {2, 2, -1});
  CHECK(same_leaf_sets(infer_switch_tree(ideal_relation(two)), two));
  const SwitchTree three = tree_of(3, {3, 3, 3, -1});
  CHECK(same_leaf_sets(infer_switch_tree(ideal_relation(three)), three));
}

TEST_CASE("tree: unbalanced, a leaf beside deeper branches", "[tree]") {
  // root 8: {node 9: {0, 1, 2}, node 10: {3, 4, node 11: {5, 6}}, 7}
  const SwitchTree truth = tree_of(8, {9, 9, 9, 10, 10, 11, 11, 8, -1, 8, 8, 10});
  const SwitchTree inferred = infer_switch_tree(ideal_relation(truth));
  CHECK(same_unrooted_tree(inferred, truth));
  // {3, 4} are siblings of node 11 before node 11 exists; they must wait for it.
  for (const auto& leaves : leaves_beneath(inferred)) CHECK(leaves != std::vector<int>{3, 4});
}

TEST_CASE("tree: limit — the root cannot be placed, only the unrooted tree", "[tree][limits]") {
  // root 4: {node 3: {0, 1}, 2}. Every path is the same if the root sat on node 3 instead:
  // the measurements give a star of three, which is this tree without its root.
  const SwitchTree truth = tree_of(3, {3, 3, 4, 4, -1});
  const SwitchTree inferred = infer_switch_tree(ideal_relation(truth));
  CHECK(inferred.complete);
  CHECK_FALSE(same_leaf_sets(inferred, truth));
  CHECK(same_unrooted_tree(inferred, truth));
  CHECK(leaves_beneath(inferred)[static_cast<std::size_t>(inferred.root())].size() == 3);
}

TEST_CASE("tree: limit — no bottleneck anywhere makes every switch a sibling", "[tree][limits]") {
  InterferenceRelation fast(8);
  for (const auto& [p, q] : pair_probe_paths(8)) fast.record(p, q, true);
  const SwitchTree inferred = infer_switch_tree(fast);
  CHECK(inferred.complete);
  CHECK(inferred.parent.size() == 9);  // eight leaves under one fresh root: flat
  const SwitchTree kaneda = tree_of(8, {9, 9, 9, 9, 10, 10, 10, 10, -1, 8, 8});
  CHECK_FALSE(same_unrooted_tree(inferred, kaneda));
}

TEST_CASE("tree: limit — everything interferes: merge finds nothing and says so",
          "[tree][limits]") {
  InterferenceRelation slow(6);
  for (const auto& [p, q] : pair_probe_paths(6)) slow.record(p, q, false);
  const SwitchTree inferred = infer_switch_tree(slow);
  CHECK_FALSE(inferred.complete);
  CHECK(inferred.parent[static_cast<std::size_t>(inferred.root())] == -1);
}

TEST_CASE("tree: interference decision from throughputs", "[tree]") {
  CHECK(transfers_interfere(100, 50, 100, 50, 0.25));
  CHECK(transfers_interfere(100, 100, 100, 60, 0.25));
  CHECK_FALSE(transfers_interfere(100, 95, 100, 99, 0.25));
  CHECK_FALSE(transfers_interfere(100, 76, 100, 80, 0.25));
}

TEST_CASE("tree: probe lists", "[tree]") {
  CHECK(single_probe_paths(8).size() == 56);
  // 8*7*6*5/2 with four distinct switches + 8*7*6/2 sharing the sender.
  CHECK(pair_probe_paths(8).size() == 840 + 168);
  CHECK(pair_probe_paths(1).empty());
}

TEST_CASE("tree: random trees with perfect measurements all come back (unrooted)", "[tree]") {
  Rng rng(2026);
  int recovered = 0;
  int tried = 0;
  constexpr int kTrees = 200;
  for (int i = 0; i < kTrees; ++i) {
    const SwitchTree truth = random_tree(rng, 3, 4);
    if (truth.leaves > 14) continue;
    const SwitchTree inferred = infer_switch_tree(ideal_relation(truth));
    // Structure: one root, every leaf beneath it.
    REQUIRE(inferred.root() >= 0);
    CHECK(leaves_beneath(inferred)[static_cast<std::size_t>(inferred.root())].size() ==
          static_cast<std::size_t>(truth.leaves));
    ++tried;
    if (same_unrooted_tree(inferred, truth)) ++recovered;
  }
  // With perfect measurements every tree whose leaves carry the hosts comes back.
  CHECK(recovered == tried);
}
