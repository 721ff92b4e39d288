#include "tsunagi/model/overlay/hierarchy_routes.hpp"

#include <algorithm>

namespace tsunagi {

HierarchyRoutes::HierarchyRoutes(Rank self, int n, Placement placement, std::vector<Rank> neighbors)
    : self_(self), n_(n), placement_(std::move(placement)), neighbors_(std::move(neighbors)) {
  std::sort(neighbors_.begin(), neighbors_.end());
  std::sort(placement_.group.begin(), placement_.group.end());
}

bool HierarchyRoutes::usable(Rank neighbor) const {
  return std::binary_search(neighbors_.begin(), neighbors_.end(), neighbor) &&
         !std::binary_search(dropped_.begin(), dropped_.end(), neighbor);
}

bool HierarchyRoutes::in_group(Rank rank) const {
  return std::binary_search(placement_.group.begin(), placement_.group.end(), rank);
}

// Every group-mate is connected to every other: any usable one passes a message on.
Rank HierarchyRoutes::via_group_mate(Rank dest) const {
  for (Rank mate : placement_.group)
    if (mate != self_ && mate != dest && usable(mate)) return mate;
  return kNoRank;
}

Rank HierarchyRoutes::below_via(Rank dest) const {
  const auto& below = placement_.links.below;
  const auto it = std::lower_bound(below.begin(), below.end(), dest);
  if (it == below.end() || *it != dest) return kNoRank;
  return placement_.links.below_via[static_cast<std::size_t>(it - below.begin())];
}

Rank HierarchyRoutes::next_hop(Rank dest) const {
  if (dest < 0 || dest >= n_) return kNoRank;
  if (dest == self_) return self_;
  if (usable(dest)) return dest;
  if (in_group(dest)) return via_group_mate(dest);
  const Rank up = leader() ? placement_.links.parent : placement_.links.leader;
  const Rank down = leader() ? below_via(dest) : kNoRank;
  const Rank hop = down != kNoRank ? down : up;
  return hop != kNoRank && usable(hop) ? hop : kNoRank;
}

void HierarchyRoutes::drop_neighbor(Rank neighbor) {
  const auto it = std::lower_bound(dropped_.begin(), dropped_.end(), neighbor);
  if (it == dropped_.end() || *it != neighbor) dropped_.insert(it, neighbor);
}

std::vector<Rank> HierarchyRoutes::next_hops() const {
  std::vector<Rank> out(static_cast<std::size_t>(std::max(n_, 0)));
  for (Rank d = 0; d < n_; ++d) out[static_cast<std::size_t>(d)] = next_hop(d);
  return out;
}

// The table is a function of the placement, the usable neighbours and n: equal inputs, equal
// digest, in O(own table) rather than O(N) per node.
std::uint64_t HierarchyRoutes::digest() const {
  std::vector<Rank> words{n_, self_, placement_.links.leader, placement_.links.parent};
  const auto add = [&](const std::vector<Rank>& list) {
    words.push_back(static_cast<Rank>(list.size()));
    words.insert(words.end(), list.begin(), list.end());
  };
  add(placement_.group);
  add(placement_.links.children);
  add(placement_.links.below);
  add(placement_.links.below_via);
  std::vector<Rank> live;
  for (Rank v : neighbors_)
    if (usable(v)) live.push_back(v);
  add(live);
  return fnv1a_ranks(words);
}

int HierarchyRoutes::known() const {
  if (self_ < 0 || self_ >= n_) return 0;
  int group = 0;
  const bool mate_path = via_group_mate(kNoRank) != kNoRank;
  for (Rank r : placement_.group) group += (r == self_ || usable(r) || mate_path) ? 1 : 0;
  const auto outside = n_ - static_cast<int>(placement_.group.size());
  if (!leader()) return group + (usable(placement_.links.leader) ? outside : 0);
  int below = 0;
  for (Rank via : placement_.links.below_via) below += usable(via) ? 1 : 0;
  const auto above = outside - static_cast<int>(placement_.links.below.size());
  return group + below + (usable(placement_.links.parent) ? above : 0);
}

int HierarchyRoutes::max_distance() const {
  if (static_cast<int>(placement_.group.size()) == n_) return n_ > 1 ? 1 : 0;
  return (leader() ? 1 : 2) + placement_.links.up + placement_.links.height;
}

}  // namespace tsunagi
