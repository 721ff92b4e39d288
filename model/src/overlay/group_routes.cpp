#include "tsunagi/model/overlay/group_routes.hpp"

#include <algorithm>

namespace tsunagi {

GroupRoutes::GroupRoutes(Rank self, int n, const Groups& groups, std::vector<Rank> neighbors)
    : self_(self),
      n_(n),
      group_of_(static_cast<std::size_t>(std::max(n, 0)), -1),
      neighbors_in_(groups.size()),
      neighbors_(std::move(neighbors)) {
  std::sort(neighbors_.begin(), neighbors_.end());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (Rank r : groups[g]) {
      if (r >= 0 && r < n_) group_of_[static_cast<std::size_t>(r)] = static_cast<int>(g);
    }
  }
  if (self_ >= 0 && self_ < n_) {
    own_group_ = group_of_[static_cast<std::size_t>(self_)];
    if (own_group_ >= 0) own_members_ = groups[static_cast<std::size_t>(own_group_)];
  }
  for (Rank v : neighbors_) {
    const int g = (v >= 0 && v < n_) ? group_of_[static_cast<std::size_t>(v)] : -1;
    if (g >= 0) neighbors_in_[static_cast<std::size_t>(g)].push_back(v);  // stays sorted
  }
}

bool GroupRoutes::usable(Rank neighbor) const {
  return std::binary_search(neighbors_.begin(), neighbors_.end(), neighbor) &&
         !std::binary_search(dropped_.begin(), dropped_.end(), neighbor);
}

Rank GroupRoutes::first_usable_in_group(int group) const {
  if (group < 0) return kNoRank;
  for (Rank v : neighbors_in_[static_cast<std::size_t>(group)]) {
    if (usable(v)) return v;
  }
  return kNoRank;
}

// The next group-mate after us (in group order, wrapping) that is still connected.
Rank GroupRoutes::relay_group_mate() const {
  const auto me = std::find(own_members_.begin(), own_members_.end(), self_);
  if (me == own_members_.end()) return kNoRank;
  const std::size_t size = own_members_.size();
  const auto start = static_cast<std::size_t>(me - own_members_.begin());
  for (std::size_t step = 1; step < size; ++step) {
    const Rank mate = own_members_[(start + step) % size];
    if (usable(mate)) return mate;
  }
  return kNoRank;
}

Rank GroupRoutes::next_hop(Rank dest) const {
  if (dest < 0 || dest >= n_) return kNoRank;
  if (dest == self_) return self_;
  if (usable(dest)) return dest;
  const Rank gateway = first_usable_in_group(group_of_[static_cast<std::size_t>(dest)]);
  if (gateway != kNoRank) return gateway;
  return relay_group_mate();
}

std::uint16_t GroupRoutes::distance(Rank dest) const {
  const Rank next = next_hop(dest);
  if (next == kNoRank) return kUnreachable;
  if (next == dest) return dest == self_ ? 0 : 1;
  const bool gateway_in_group =
      group_of_[static_cast<std::size_t>(next)] == group_of_[static_cast<std::size_t>(dest)];
  return gateway_in_group ? 2 : 3;
}

void GroupRoutes::drop_neighbor(Rank neighbor) {
  auto it = std::lower_bound(dropped_.begin(), dropped_.end(), neighbor);
  if (it == dropped_.end() || *it != neighbor) dropped_.insert(it, neighbor);
}

std::vector<Rank> GroupRoutes::next_hops() const {
  std::vector<Rank> table(static_cast<std::size_t>(std::max(n_, 0)));
  for (Rank d = 0; d < n_; ++d) table[static_cast<std::size_t>(d)] = next_hop(d);
  return table;
}

int GroupRoutes::known() const {
  int count = 0;
  for (Rank d = 0; d < n_; ++d) count += next_hop(d) != kNoRank ? 1 : 0;
  return count;
}

int GroupRoutes::max_distance() const {
  int most = 0;
  for (Rank d = 0; d < n_; ++d) {
    const std::uint16_t hops = distance(d);
    if (hops != kUnreachable) most = std::max<int>(most, hops);
  }
  return most;
}

}  // namespace tsunagi
