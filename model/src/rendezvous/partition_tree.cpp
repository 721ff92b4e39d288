#include "rendezvous/partition_tree.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

namespace tsunagi {
namespace {

// Clusters of leaves as a union-find; each cluster also knows its tree node.
class Clusters {
 public:
  explicit Clusters(int leaves) : up_(static_cast<std::size_t>(leaves)) {
    std::iota(up_.begin(), up_.end(), 0);
    node_ = up_;
  }
  int find(int x) {
    while (up_[static_cast<std::size_t>(x)] != x) {
      up_[static_cast<std::size_t>(x)] =
          up_[static_cast<std::size_t>(up_[static_cast<std::size_t>(x)])];
      x = up_[static_cast<std::size_t>(x)];
    }
    return x;
  }
  void join(int a, int b) { up_[static_cast<std::size_t>(find(a))] = find(b); }
  int& node(int root) { return node_[static_cast<std::size_t>(root)]; }

 private:
  std::vector<int> up_;
  std::vector<int> node_;
};

// One round: every link within the limit joins its clusters (connected sets, all at once);
// each set of two or more old clusters gets a fresh parent switch.
void join_round(Clusters& clusters, const std::vector<GroupLink>& links, std::size_t from,
                std::size_t to, SwitchTree& tree) {
  std::map<int, int> old_node;  // old cluster root -> its node, for the clusters this round joins
  for (std::size_t i = from; i < to; ++i)
    for (int leaf : {links[i].a, links[i].b}) {
      const int root = clusters.find(leaf);
      old_node.emplace(root, clusters.node(root));
    }
  for (std::size_t i = from; i < to; ++i) clusters.join(links[i].a, links[i].b);
  std::map<int, std::vector<int>> children;  // new root -> old nodes beneath it
  for (const auto& [root, node] : old_node) children[clusters.find(root)].push_back(node);
  for (const auto& [root, nodes] : children) {
    if (nodes.size() < 2) continue;
    const int parent = static_cast<int>(tree.parent.size());
    tree.parent.push_back(-1);
    for (int n : nodes) tree.parent[static_cast<std::size_t>(n)] = parent;
    clusters.node(root) = parent;
  }
}

}  // namespace

SwitchTree tree_from_links(int leaves, std::vector<GroupLink> links, double tolerance) {
  SwitchTree tree;
  tree.leaves = std::max(0, leaves);
  tree.parent.assign(static_cast<std::size_t>(tree.leaves), -1);
  if (tree.leaves <= 1) return tree;
  std::sort(links.begin(), links.end(), [](const GroupLink& x, const GroupLink& y) {
    return std::tie(x.rtt, x.a, x.b) < std::tie(y.rtt, y.a, y.b);
  });
  Clusters clusters(tree.leaves);
  std::size_t next = 0;
  for (;;) {
    // The smallest link between two clusters sets this round's limit.
    while (next < links.size() && clusters.find(links[next].a) == clusters.find(links[next].b))
      ++next;
    if (next == links.size()) break;
    const double limit = static_cast<double>(links[next].rtt) * (1 + tolerance);
    std::size_t end = next;
    while (end < links.size() && static_cast<double>(links[end].rtt) <= limit) ++end;
    join_round(clusters, links, next, end, tree);
    next = end;
  }
  // What no link joined hangs off one root: still a rooted tree over every group.
  std::vector<int> tops;
  for (int leaf = 0; leaf < tree.leaves; ++leaf)
    if (clusters.find(leaf) == leaf) tops.push_back(clusters.node(leaf));
  if (tops.size() > 1) {
    tree.complete = false;
    const int root = static_cast<int>(tree.parent.size());
    tree.parent.push_back(-1);
    for (int n : tops) tree.parent[static_cast<std::size_t>(n)] = root;
  }
  return tree;
}

SwitchTree relabel_leaves(const SwitchTree& tree, const std::vector<int>& new_index) {
  SwitchTree out = tree;
  for (int leaf = 0; leaf < tree.leaves; ++leaf)
    out.parent[static_cast<std::size_t>(new_index[static_cast<std::size_t>(leaf)])] =
        tree.parent[static_cast<std::size_t>(leaf)];
  return out;
}

std::vector<GroupLink> group_links(const Groups& groups, std::size_t ranks,
                                   const std::vector<RankSample>& samples) {
  std::vector<int> group_of(ranks, -1);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (Rank r : groups[g])
      if (r >= 0 && static_cast<std::size_t>(r) < ranks)
        group_of[static_cast<std::size_t>(r)] = static_cast<int>(g);
  auto of = [&](Rank r) {
    return r >= 0 && static_cast<std::size_t>(r) < ranks ? group_of[static_cast<std::size_t>(r)]
                                                         : -1;
  };
  std::unordered_map<std::uint64_t, TimeNs> best;  // (low group, high group) -> smallest RTT
  for (const RankSample& s : samples) {
    const int a = of(s.a), b = of(s.b);
    if (a < 0 || b < 0 || a == b || s.rtt <= 0) continue;
    const auto key = (static_cast<std::uint64_t>(std::min(a, b)) << 32) |
                     static_cast<std::uint32_t>(std::max(a, b));
    auto [it, fresh] = best.emplace(key, s.rtt);
    if (!fresh) it->second = std::min(it->second, s.rtt);
  }
  std::vector<GroupLink> links;
  links.reserve(best.size());
  for (const auto& [key, rtt] : best)
    links.push_back({static_cast<int>(key >> 32), static_cast<int>(key & 0xffffffffu), rtt});
  return links;
}

SwitchTree canonical_switch_numbers(const SwitchTree& tree) {
  const auto nodes = static_cast<int>(tree.parent.size());
  std::vector<int> lowest(tree.parent.size(), nodes), size(tree.parent.size(), 0);
  for (int leaf = 0; leaf < tree.leaves && leaf < nodes; ++leaf) {
    for (int v = leaf, steps = 0; v >= 0 && v < nodes && steps <= nodes; ++steps) {
      lowest[static_cast<std::size_t>(v)] = std::min(lowest[static_cast<std::size_t>(v)], leaf);
      ++size[static_cast<std::size_t>(v)];
      v = tree.parent[static_cast<std::size_t>(v)];
    }
  }
  std::vector<int> inner;
  for (int v = tree.leaves; v < nodes; ++v) inner.push_back(v);
  std::sort(inner.begin(), inner.end(), [&](int a, int b) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    if (lowest[ua] != lowest[ub]) return lowest[ua] < lowest[ub];
    if (size[ua] != size[ub]) return size[ua] > size[ub];
    return a < b;  // switches with no leaf beneath keep their relative order
  });
  std::vector<int> number(tree.parent.size());
  for (int v = 0; v < tree.leaves && v < nodes; ++v) number[static_cast<std::size_t>(v)] = v;
  for (std::size_t k = 0; k < inner.size(); ++k)
    number[static_cast<std::size_t>(inner[k])] = tree.leaves + static_cast<int>(k);
  SwitchTree out = tree;
  for (int v = 0; v < nodes; ++v) {
    const int p = tree.parent[static_cast<std::size_t>(v)];
    out.parent[static_cast<std::size_t>(number[static_cast<std::size_t>(v)])] =
        (p < 0 || p >= nodes) ? p : number[static_cast<std::size_t>(p)];
  }
  return out;
}

}  // namespace tsunagi
