#include "tsunagi/model/topology/rtt_tree.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tsunagi {
namespace {

constexpr double kFar = std::numeric_limits<double>::max();

double pair_distance(const std::vector<std::vector<TimeNs>>& rtt, int a, int b) {
  const auto one = [&](int i, int j) {
    const TimeNs v = rtt[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
    return v < 0 ? kFar : static_cast<double>(v);
  };
  return std::min(one(a, b), one(b, a));
}

}  // namespace

SwitchTree tree_from_rtts(const std::vector<std::vector<TimeNs>>& rtt, double tolerance) {
  const int leaves = static_cast<int>(rtt.size());
  SwitchTree tree;
  tree.leaves = leaves;
  tree.parent.assign(static_cast<std::size_t>(leaves), -1);
  // Current clusters: tree node and the leaves beneath it.
  std::vector<int> node(static_cast<std::size_t>(leaves));
  std::iota(node.begin(), node.end(), 0);
  std::vector<std::vector<int>> members(static_cast<std::size_t>(leaves));
  for (int i = 0; i < leaves; ++i) members[static_cast<std::size_t>(i)] = {i};
  // Single linkage between clusters, kept up to date as clusters join.
  std::vector<std::vector<double>> dist(
      static_cast<std::size_t>(leaves),
      std::vector<double>(static_cast<std::size_t>(leaves), kFar));
  for (int i = 0; i < leaves; ++i)
    for (int j = 0; j < leaves; ++j)
      if (i != j)
        dist[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = pair_distance(rtt, i, j);

  while (node.size() > 1) {
    const std::size_t count = node.size();
    double smallest = kFar;
    for (std::size_t i = 0; i < count; ++i)
      for (std::size_t j = i + 1; j < count; ++j) smallest = std::min(smallest, dist[i][j]);
    // Components of "within tolerance of the smallest" (all far: everything joins at the root).
    std::vector<int> comp(count);
    std::iota(comp.begin(), comp.end(), 0);
    const auto find = [&](int x) {
      while (comp[static_cast<std::size_t>(x)] != x) x = comp[static_cast<std::size_t>(x)];
      return x;
    };
    const double limit = smallest == kFar ? kFar : smallest * (1 + tolerance);
    for (std::size_t i = 0; i < count; ++i)
      for (std::size_t j = i + 1; j < count; ++j)
        if (dist[i][j] <= limit)
          comp[static_cast<std::size_t>(find(static_cast<int>(i)))] = find(static_cast<int>(j));
    std::vector<std::vector<std::size_t>> sets(count);
    for (std::size_t i = 0; i < count; ++i)
      sets[static_cast<std::size_t>(find(static_cast<int>(i)))].push_back(i);

    std::vector<int> next_node;
    std::vector<std::vector<std::size_t>> next_from;  // old cluster indices behind each new one
    for (const auto& set : sets) {
      if (set.empty()) continue;
      if (set.size() == 1) {
        next_node.push_back(node[set[0]]);
      } else {
        const int parent = static_cast<int>(tree.parent.size());
        tree.parent.push_back(-1);
        for (std::size_t i : set) tree.parent[static_cast<std::size_t>(node[i])] = parent;
        next_node.push_back(parent);
      }
      next_from.push_back(set);
    }
    std::vector<std::vector<double>> next_dist(next_node.size(),
                                               std::vector<double>(next_node.size(), kFar));
    for (std::size_t a = 0; a < next_node.size(); ++a)
      for (std::size_t b = 0; b < next_node.size(); ++b)
        if (a != b)
          for (std::size_t i : next_from[a])
            for (std::size_t j : next_from[b])
              next_dist[a][b] = std::min(next_dist[a][b], dist[i][j]);
    node = std::move(next_node);
    dist = std::move(next_dist);
  }
  return tree;
}

}  // namespace tsunagi
