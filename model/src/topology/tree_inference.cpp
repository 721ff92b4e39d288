#include "tsunagi/model/topology/tree_inference.hpp"

#include <algorithm>
#include <iterator>
#include <numeric>

namespace tsunagi {
namespace {

// Union-find over the members of X, for sibling classes.
struct Classes {
  std::vector<int> up;
  explicit Classes(std::size_t n) : up(n) { std::iota(up.begin(), up.end(), 0); }
  int find(int i) {
    return up[static_cast<std::size_t>(i)] == i
               ? i
               : up[static_cast<std::size_t>(i)] = find(up[static_cast<std::size_t>(i)]);
  }
  void join(int a, int b) { up[static_cast<std::size_t>(find(a))] = find(b); }
};

class TreeBuilder {
 public:
  explicit TreeBuilder(const InterferenceRelation& relation) : relation_(relation) {
    const int leaves = relation.switches();
    tree_.leaves = leaves;
    for (int leaf = 0; leaf < leaves; ++leaf) {
      tree_.parent.push_back(-1);
      beneath_.push_back({leaf});
      open_.push_back(leaf);
    }
  }

  SwitchTree run() {
    while (open_.size() > 3) {
      if (!merge_siblings()) {
        tree_.complete = false;
        adopt_all();
        return tree_;
      }
    }
    if (open_.size() == 3 && adopt_by_center()) return tree_;
    if (open_.size() >= 2) adopt_all();
    return tree_;
  }

 private:
  // (uv, wx) in R for current switches: some measured leaf transfers beneath them did not
  // interfere. u == w is the shared-sender form.
  bool non_interfering(int u, int v, int w, int x) const {
    for (int a : beneath_[static_cast<std::size_t>(u)])
      for (int b : beneath_[static_cast<std::size_t>(v)])
        for (int c : beneath_[static_cast<std::size_t>(w)])
          for (int d : beneath_[static_cast<std::size_t>(x)])
            if (relation_.non_interfering({a, b}, {c, d}).value_or(false)) return true;
    return false;
  }

  bool siblings(int u, int v) const {
    for (int w : open_) {
      for (int x : open_) {
        if (w == x || w == u || w == v || x == u || x == v) continue;
        if (!non_interfering(u, v, w, x) || !non_interfering(v, u, w, x)) return false;
      }
    }
    return true;
  }

  // A sibling class is a switch of its own only if its members share an uplink: transfers out
  // of two different members to two different switches outside the class always interfere.
  // Members of a class that is still missing a sibling subtree (not yet merged) fail this: one
  // of them can send past the missing subtree's downlink while another sends elsewhere.
  bool shares_an_uplink(const std::vector<int>& set) const {
    auto inside = [&](int s) { return std::find(set.begin(), set.end(), s) != set.end(); };
    for (int u : set)
      for (int v : set)
        for (int y : open_)
          for (int z : open_) {
            if (u == v || y == z || inside(y) || inside(z)) continue;
            if (non_interfering(u, y, v, z)) return false;
          }
    return true;
  }

  bool merge_siblings() {
    Classes classes(open_.size());
    for (std::size_t i = 0; i < open_.size(); ++i)
      for (std::size_t j = i + 1; j < open_.size(); ++j)
        if (siblings(open_[i], open_[j])) classes.join(static_cast<int>(i), static_cast<int>(j));
    std::vector<std::vector<int>> sets(open_.size());
    for (std::size_t i = 0; i < open_.size(); ++i)
      sets[static_cast<std::size_t>(classes.find(static_cast<int>(i)))].push_back(open_[i]);
    std::vector<int> next_open;
    bool merged = false;
    for (const auto& set : sets) {
      if (set.empty()) continue;
      if (set.size() == 1 || !shares_an_uplink(set)) {
        next_open.insert(next_open.end(), set.begin(), set.end());
        continue;
      }
      next_open.push_back(new_parent_of(set));
      merged = true;
    }
    std::sort(next_open.begin(), next_open.end());
    open_ = std::move(next_open);
    return merged;
  }

  int new_parent_of(const std::vector<int>& children) {
    const int node = static_cast<int>(tree_.parent.size());
    tree_.parent.push_back(-1);
    std::vector<int> leaves;
    for (int child : children) {
      tree_.parent[static_cast<std::size_t>(child)] = node;
      const auto& below = beneath_[static_cast<std::size_t>(child)];
      leaves.insert(leaves.end(), below.begin(), below.end());
    }
    std::sort(leaves.begin(), leaves.end());
    beneath_.push_back(std::move(leaves));
    return node;
  }

  // |X| = 3: a is the parent of b and c when a->b and a->c do not interfere.
  bool adopt_by_center() {
    for (int i = 0; i < 3; ++i) {
      const int a = open_[static_cast<std::size_t>(i)];
      const int b = open_[static_cast<std::size_t>((i + 1) % 3)];
      const int c = open_[static_cast<std::size_t>((i + 2) % 3)];
      if (!non_interfering(a, b, a, c)) continue;
      tree_.parent[static_cast<std::size_t>(b)] = a;
      tree_.parent[static_cast<std::size_t>(c)] = a;
      open_ = {a};
      return true;
    }
    return false;
  }

  void adopt_all() {
    new_parent_of(open_);
    open_ = {static_cast<int>(tree_.parent.size()) - 1};
  }

  const InterferenceRelation& relation_;
  SwitchTree tree_;
  std::vector<std::vector<int>> beneath_;
  std::vector<int> open_;  // X, sorted
};

}  // namespace

InterferenceRelation::InterferenceRelation(int switches)
    : switches_(std::max(switches, 0)),
      cells_(static_cast<std::size_t>(switches_) * static_cast<std::size_t>(switches_) *
                 static_cast<std::size_t>(switches_) * static_cast<std::size_t>(switches_),
             0) {}

std::size_t InterferenceRelation::index(TransferPath a, TransferPath b) const {
  const auto n = static_cast<std::size_t>(switches_);
  return ((static_cast<std::size_t>(a.from) * n + static_cast<std::size_t>(a.to)) * n +
          static_cast<std::size_t>(b.from)) *
             n +
         static_cast<std::size_t>(b.to);
}

void InterferenceRelation::record(TransferPath a, TransferPath b, bool non_interfering) {
  for (int s : {a.from, a.to, b.from, b.to})
    if (s < 0 || s >= switches_) return;
  const std::uint8_t cell = non_interfering ? 2 : 1;
  cells_[index(a, b)] = cell;
  cells_[index(b, a)] = cell;
}

std::optional<bool> InterferenceRelation::non_interfering(TransferPath a, TransferPath b) const {
  for (int s : {a.from, a.to, b.from, b.to})
    if (s < 0 || s >= switches_) return std::nullopt;
  const std::uint8_t cell = cells_[index(a, b)];
  if (cell == 0) return std::nullopt;
  return cell == 2;
}

bool transfers_interfere(double alone_a, double together_a, double alone_b, double together_b,
                         double drop) {
  const double keep = 1.0 - drop;
  return together_a < keep * alone_a || together_b < keep * alone_b;
}

std::vector<TransferPath> single_probe_paths(int switches) {
  std::vector<TransferPath> paths;
  for (int a = 0; a < switches; ++a)
    for (int b = 0; b < switches; ++b)
      if (a != b) paths.push_back({a, b});
  return paths;
}

std::vector<PathPair> pair_probe_paths(int switches) {
  const std::vector<TransferPath> paths = single_probe_paths(switches);
  std::vector<PathPair> pairs;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    for (std::size_t j = i + 1; j < paths.size(); ++j) {
      const TransferPath p = paths[i];
      const TransferPath q = paths[j];
      const bool distinct = p.from != q.from && p.from != q.to && p.to != q.from && p.to != q.to;
      const bool shared_sender = p.from == q.from && p.to != q.to;
      if (distinct || shared_sender) pairs.emplace_back(p, q);
    }
  }
  return pairs;
}

int SwitchTree::root() const {
  for (std::size_t node = 0; node < parent.size(); ++node)
    if (parent[node] < 0) return static_cast<int>(node);
  return -1;
}

SwitchTree infer_switch_tree(const InterferenceRelation& relation) {
  return TreeBuilder(relation).run();
}

std::vector<std::vector<int>> leaves_beneath(const SwitchTree& tree) {
  std::vector<std::vector<int>> beneath(tree.parent.size());
  for (int leaf = 0; leaf < tree.leaves; ++leaf) {
    for (int node = leaf; node >= 0; node = tree.parent[static_cast<std::size_t>(node)])
      beneath[static_cast<std::size_t>(node)].push_back(leaf);
  }
  for (auto& leaves : beneath) std::sort(leaves.begin(), leaves.end());
  return beneath;
}

bool same_leaf_sets(const SwitchTree& a, const SwitchTree& b) {
  if (a.leaves != b.leaves) return false;
  auto sets = [](const SwitchTree& t) {
    std::vector<std::vector<int>> all = leaves_beneath(t);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
  };
  return sets(a) == sets(b);
}

bool same_unrooted_tree(const SwitchTree& a, const SwitchTree& b) {
  if (a.leaves != b.leaves) return false;
  auto splits = [](const SwitchTree& t) {
    std::vector<std::vector<int>> all;
    const auto beneath = leaves_beneath(t);
    for (std::size_t node = 0; node < t.parent.size(); ++node) {
      if (t.parent[node] < 0) continue;
      std::vector<int> side = beneath[node];
      if (std::binary_search(side.begin(), side.end(),
                             0)) {  // name each split by the side without leaf 0
        std::vector<int> other;
        for (int leaf = 0; leaf < t.leaves; ++leaf)
          if (!std::binary_search(side.begin(), side.end(), leaf)) other.push_back(leaf);
        side = std::move(other);
      }
      if (!side.empty()) all.push_back(std::move(side));
    }
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
  };
  return splits(a) == splits(b);
}

namespace {

// Directed links a transfer from leaf `from` to leaf `to` crosses: node*2 = the node's uplink
// going up, node*2+1 = coming down.
std::vector<int> path_links(const SwitchTree& tree, int from, int to) {
  std::vector<int> ups;
  std::vector<int> above_from;
  for (int n = from; n >= 0; n = tree.parent[static_cast<std::size_t>(n)]) above_from.push_back(n);
  std::vector<int> downs;
  int meet = to;
  while (std::find(above_from.begin(), above_from.end(), meet) == above_from.end()) {
    downs.push_back(meet * 2 + 1);
    meet = tree.parent[static_cast<std::size_t>(meet)];
    if (meet < 0) break;
  }
  for (int n : above_from) {
    if (n == meet) break;
    ups.push_back(n * 2);
  }
  ups.insert(ups.end(), downs.begin(), downs.end());
  std::sort(ups.begin(), ups.end());
  return ups;
}

bool share_a_link(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> common;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(common));
  return !common.empty();
}

}  // namespace

InterferenceRelation ideal_relation(const SwitchTree& tree) {
  InterferenceRelation relation(tree.leaves);
  for (const PathPair& pair : pair_probe_paths(tree.leaves)) {
    const auto a = path_links(tree, pair.first.from, pair.first.to);
    const auto b = path_links(tree, pair.second.from, pair.second.to);
    const bool shared = share_a_link(a, b);
    relation.record(pair.first, pair.second, !shared);
  }
  return relation;
}

}  // namespace tsunagi
