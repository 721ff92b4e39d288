// Random rooted switch trees over `leaves` groups, for the units that take a SwitchTree
// (test_hierarchy.cpp, test_partition_inference.cpp): open nodes are merged `min_take` to
// `max_take` at a time under a fresh switch until one is left; with `chain_chance` the root
// gets one more switch above it (a chain, which adds no split).
#pragma once

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

#include "tsunagi/model/rng.hpp"
#include "tsunagi/model/topology/tree_inference.hpp"

namespace tsunagi::test {

inline SwitchTree random_switch_tree(int leaves, Rng& rng, std::size_t min_take,
                                     std::size_t max_take, double chain_chance = 0) {
  SwitchTree t;
  t.leaves = leaves;
  t.parent.assign(static_cast<std::size_t>(leaves), -1);
  std::vector<int> open(static_cast<std::size_t>(leaves));
  std::iota(open.begin(), open.end(), 0);
  while (open.size() > 1 || rng.uniform01() < chain_chance) {
    const std::size_t take = std::min(open.size(), min_take + rng.uniform(max_take - min_take + 1));
    const int node = static_cast<int>(t.parent.size());
    t.parent.push_back(-1);
    for (std::size_t i = 0; i < take; ++i) {
      const std::size_t pick = rng.uniform(open.size());
      t.parent[static_cast<std::size_t>(open[pick])] = node;
      open.erase(open.begin() + static_cast<std::ptrdiff_t>(pick));
    }
    open.push_back(node);
  }
  return t;
}

}  // namespace tsunagi::test
