// The hierarchical plan: groups, their leaders, and the tree of leaders read off a group tree.
#include "tsunagi/model/overlay/hierarchy.hpp"

#include <algorithm>

#include "tsunagi/model/overlay/plan.hpp"

namespace tsunagi {

namespace {

// Whether normalise_plan_groups keeps every given group (each has a rank no earlier group has):
// only then are the first groups of the normalised list the tree's leaves, in order.
bool every_group_kept(int n, const Groups& groups) {
  std::vector<bool> seen(static_cast<std::size_t>(std::max(n, 0)), false);
  for (const auto& group : groups) {
    bool kept = false;
    for (Rank r : group) {
      if (r < 0 || r >= n || seen[static_cast<std::size_t>(r)]) continue;
      seen[static_cast<std::size_t>(r)] = true;
      kept = true;
    }
    if (!kept) return false;
  }
  return true;
}

// Whether every node reaches the single root by parent links within `nodes` steps.
bool one_rooted_tree(const std::vector<int>& parent) {
  const auto nodes = static_cast<int>(parent.size());
  int roots = 0;
  for (int p : parent) {
    if (p < -1 || p >= nodes) return false;
    if (p == -1) ++roots;
  }
  if (roots != 1) return false;
  for (int v = 0; v < nodes; ++v) {
    int at = v;
    for (int steps = 0; at != -1; ++steps) {
      if (steps > nodes) return false;  // a cycle
      at = parent[static_cast<std::size_t>(at)];
    }
  }
  return true;
}

}  // namespace

HierarchyPlan::HierarchyPlan(int n, const Groups& groups, const SwitchTree* tree)
    : n_(std::max(n, 0)), groups_(normalise_plan_groups(n, groups)) {
  group_of_.assign(static_cast<std::size_t>(n_), -1);
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    std::sort(groups_[g].begin(), groups_[g].end());  // the leader is the lowest rank
    for (Rank r : groups_[g]) group_of_[static_cast<std::size_t>(r)] = static_cast<int>(g);
  }
  if (groups_.empty()) return;
  const bool fits = tree != nullptr && tree->leaves == static_cast<int>(groups.size()) &&
                    every_group_kept(n, groups);
  fit_tree(fits ? tree : nullptr);
  choose_representatives();
  link_leaders();
  order_leaves();
}

// Tree nodes: the groups first, then the tree's inner nodes. Groups the tree does not know
// (ranks nobody placed) hang off its root.
void HierarchyPlan::fit_tree(const SwitchTree* tree) {
  const auto groups = static_cast<int>(groups_.size());
  if (tree != nullptr) {
    const int inner = static_cast<int>(tree->parent.size()) - tree->leaves;
    std::vector<int> parent(static_cast<std::size_t>(groups + std::max(inner, 0)), -1);
    const auto node = [&](int v) { return v < tree->leaves ? v : groups + v - tree->leaves; };
    for (int v = 0; v < static_cast<int>(tree->parent.size()); ++v) {
      const int p = tree->parent[static_cast<std::size_t>(v)];
      parent[static_cast<std::size_t>(node(v))] =
          (p < 0 || p >= static_cast<int>(tree->parent.size())) ? p : node(p);
    }
    if (inner >= 0 && one_rooted_tree(parent)) {
      const auto root =
          static_cast<int>(std::find(parent.begin(), parent.end(), -1) - parent.begin());
      for (int g = tree->leaves; g < groups; ++g) parent[static_cast<std::size_t>(g)] = root;
      parent_ = std::move(parent);
      return;
    }
  }
  star_ = tree != nullptr || groups > 1;
  parent_.assign(static_cast<std::size_t>(groups + 1), groups);  // every group under one root
  parent_.back() = -1;
}

// Every node is represented by the lowest leader beneath it (kNoRank: no group beneath).
void HierarchyPlan::choose_representatives() {
  rep_.assign(parent_.size(), kNoRank);
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const Rank leader = groups_[g].front();
    for (int v = static_cast<int>(g); v != -1; v = parent_[static_cast<std::size_t>(v)]) {
      Rank& rep = rep_[static_cast<std::size_t>(v)];
      if (rep != kNoRank && rep <= leader) break;  // the rest of the way up has a lower one
      rep = leader;
    }
  }
}

// A leader's top node is the highest one it represents; its parent leader represents the node
// above that. Children are listed in rank order, so every backend hears the same placement.
void HierarchyPlan::link_leaders() {
  const std::size_t groups = groups_.size();
  top_.assign(groups, 0);
  leader_parent_.assign(groups, kNoRank);
  children_.assign(groups, {});
  for (std::size_t g = 0; g < groups; ++g) {
    const Rank leader = groups_[g].front();
    int top = static_cast<int>(g);
    while (parent_[static_cast<std::size_t>(top)] != -1 &&
           rep_[static_cast<std::size_t>(parent_[static_cast<std::size_t>(top)])] == leader)
      top = parent_[static_cast<std::size_t>(top)];
    top_[g] = top;
    const int above = parent_[static_cast<std::size_t>(top)];
    if (above == -1) continue;
    const Rank parent = rep_[static_cast<std::size_t>(above)];
    leader_parent_[g] = parent;
    children_[static_cast<std::size_t>(group_of_[static_cast<std::size_t>(parent)])].push_back(
        static_cast<int>(g));
  }
  up_.assign(groups, 0);
  // Leaders' parents have lower ranks, so walking groups by leader rank meets parents first.
  std::vector<int> by_leader(groups);
  for (std::size_t g = 0; g < groups; ++g) by_leader[g] = static_cast<int>(g);
  std::sort(by_leader.begin(), by_leader.end(),
            [&](int a, int b) { return groups_[a].front() < groups_[b].front(); });
  for (int g : by_leader) {
    const Rank parent = leader_parent_[static_cast<std::size_t>(g)];
    if (parent == kNoRank) continue;
    const int pg = group_of_[static_cast<std::size_t>(parent)];
    up_[static_cast<std::size_t>(g)] =
        static_cast<std::uint16_t>(up_[static_cast<std::size_t>(pg)] + 1);
    height_ = std::max(height_, up_[static_cast<std::size_t>(g)]);
  }
}

// Depth-first order of the groups: every node's groups are one range of it, so a leader can
// list the ranks beneath a child without a per-node copy.
void HierarchyPlan::order_leaves() {
  const std::size_t nodes = parent_.size();
  std::vector<std::vector<int>> kids(nodes);
  int root = -1;
  for (std::size_t v = 0; v < nodes; ++v) {
    if (parent_[v] == -1)
      root = static_cast<int>(v);
    else
      kids[static_cast<std::size_t>(parent_[v])].push_back(static_cast<int>(v));
  }
  first_leaf_.assign(nodes, 0);
  end_leaf_.assign(nodes, 0);
  std::vector<std::pair<int, std::size_t>> stack{{root, 0}};
  first_leaf_[static_cast<std::size_t>(root)] = 0;
  while (!stack.empty()) {
    auto& [v, next] = stack.back();
    const auto& below = kids[static_cast<std::size_t>(v)];
    if (v < static_cast<int>(groups_.size()) && next == 0) leaf_order_.push_back(v);
    if (next < below.size()) {
      const int child = below[next++];
      first_leaf_[static_cast<std::size_t>(child)] = static_cast<int>(leaf_order_.size());
      stack.emplace_back(child, 0);
      continue;
    }
    end_leaf_[static_cast<std::size_t>(v)] = static_cast<int>(leaf_order_.size());
    stack.pop_back();
  }
}

Placement HierarchyPlan::placement(Rank rank) const {
  Placement p;
  if (rank < 0 || rank >= n_) return p;
  const auto g = static_cast<std::size_t>(group_of_[static_cast<std::size_t>(rank)]);
  p.group = groups_[g];
  wire::LeaderLinks& links = p.links;
  links.leader = groups_[g].front();
  links.up = up_[g];
  links.height = height_;
  if (rank != links.leader) return p;
  links.parent = leader_parent_[g];
  std::vector<std::pair<Rank, Rank>> below;
  for (int child : children_[g]) {
    const Rank via = groups_[static_cast<std::size_t>(child)].front();
    links.children.push_back(via);
    const auto top = static_cast<std::size_t>(top_[static_cast<std::size_t>(child)]);
    for (int i = first_leaf_[top]; i < end_leaf_[top]; ++i)
      for (Rank r : groups_[static_cast<std::size_t>(leaf_order_[static_cast<std::size_t>(i)])])
        below.emplace_back(r, via);
  }
  std::sort(links.children.begin(), links.children.end());
  std::sort(below.begin(), below.end());
  for (const auto& [r, via] : below) {
    links.below.push_back(r);
    links.below_via.push_back(via);
  }
  return p;
}

std::vector<Rank> HierarchyPlan::neighbors(Rank rank) const {
  return placement_neighbors(rank, placement(rank));
}

std::uint64_t HierarchyPlan::connection_ends() const {
  std::uint64_t ends = 0;
  for (const auto& group : groups_) ends += group.size() * (group.size() - 1);
  for (Rank parent : leader_parent_)
    if (parent != kNoRank) ends += 2;
  return ends;
}

std::vector<Rank> placement_neighbors(Rank self, const Placement& p) {
  std::vector<Rank> out;
  for (Rank r : p.group)
    if (r != self) out.push_back(r);
  if (self == p.links.leader) {
    if (p.links.parent != kNoRank) out.push_back(p.links.parent);
    out.insert(out.end(), p.links.children.begin(), p.links.children.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace tsunagi
