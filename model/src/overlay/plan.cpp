// Static connection plans (paper 000 §3.1): all-to-all, random-k, topology-aware.
#include "tsunagi/model/overlay/plan.hpp"

#include <algorithm>

#include "tsunagi/model/overlay/hierarchy.hpp"
#include "tsunagi/model/rng.hpp"

namespace tsunagi {

namespace {

bool in_range(Rank r, int n) {
  return r >= 0 && r < n;
}

std::vector<Rank> all_others(Rank self, int n) {
  std::vector<Rank> out;
  out.reserve(static_cast<std::size_t>(n - 1));
  for (Rank v = 0; v < n; ++v) {
    if (v != self) out.push_back(v);
  }
  return out;
}

// Where each rank sits in the normalised groups: group index and index inside the group.
struct Seat {
  std::size_t group = 0;
  std::size_t index = 0;
};

std::vector<Seat> seats_of(int n, const Groups& groups) {
  std::vector<Seat> seats(static_cast<std::size_t>(n));
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (std::size_t i = 0; i < groups[g].size(); ++i) {
      seats[static_cast<std::size_t>(groups[g][i])] = Seat{g, i};
    }
  }
  return seats;
}

// Relay plan: the own group (the site) only; other sites are reached through relays.
std::vector<Rank> own_group(Rank self, int n, const Groups& raw_groups) {
  const Groups groups = normalise_plan_groups(n, raw_groups);
  const Seat me = seats_of(n, groups)[static_cast<std::size_t>(self)];
  std::vector<Rank> out;
  for (Rank v : groups[me.group])
    if (v != self) out.push_back(v);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Rank> topology_aware(Rank self, int n, const Groups& raw_groups) {
  const Groups groups = normalise_plan_groups(n, raw_groups);
  const Seat me = seats_of(n, groups)[static_cast<std::size_t>(self)];
  const std::vector<Rank>& own = groups[me.group];
  std::vector<Rank> out;
  // Own switch: everyone (one switch hop, the cheapest links there are).
  for (Rank v : own) {
    if (v != self) out.push_back(v);
  }
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (g == me.group) continue;
    const std::vector<Rank>& other = groups[g];
    // Forward: our index picks our gateway into `other`, so the links into one switch are
    // spread over its members instead of all landing on its first node.
    out.push_back(other[me.index % other.size()]);
    // Reverse: members j of `other` whose own rule picks us (own[j % |own|] == self), i.e.
    // j = me.index, me.index + |own|, ... Adding them makes the plan symmetric.
    for (std::size_t j = me.index; j < other.size(); j += own.size()) out.push_back(other[j]);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Probability of a non-ring pair being an edge, so that ring (2 per node) + random pairs give
// an expected degree of exactly random_k.
double random_pair_probability(int n, int random_k) {
  if (n <= 3) return 1.0;  // the ring already covers every pair
  const double p = static_cast<double>(random_k - 2) / static_cast<double>(n - 3);
  return std::clamp(p, 0.0, 1.0);
}

bool ring_pair(Rank u, Rank v, int n) {
  const Rank step = (v - u + n) % n;
  return step == 1 || step == n - 1;
}

std::vector<Rank> random_k_row(Rank self, int n, int k, std::uint64_t seed) {
  std::vector<Rank> out;
  for (Rank v = 0; v < n; ++v) {
    if (v != self && random_plan_edge(self, v, n, k, seed)) out.push_back(v);
  }
  return out;  // built in rank order: already sorted and unique
}

}  // namespace

Groups normalise_plan_groups(int n, const Groups& groups) {
  if (n <= 0) return {};
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  Groups out;
  for (const auto& group : groups) {
    std::vector<Rank> kept;
    for (Rank r : group) {
      if (!in_range(r, n) || seen[static_cast<std::size_t>(r)]) continue;
      seen[static_cast<std::size_t>(r)] = true;
      kept.push_back(r);
    }
    if (!kept.empty()) out.push_back(std::move(kept));
  }
  // A rank nobody placed gets a switch of its own: it then still gets one link to every group,
  // which keeps it reachable, rather than being silently left out of the overlay.
  for (Rank r = 0; r < n; ++r) {
    if (!seen[static_cast<std::size_t>(r)]) out.push_back({r});
  }
  return out;
}

bool random_plan_edge(Rank u, Rank v, int n, int random_k, std::uint64_t seed) {
  if (u == v || !in_range(u, n) || !in_range(v, n)) return false;
  if (ring_pair(u, v, n)) return true;
  // Counter-based coin: hash of (seed, low, high). Both ends compute the same value, and no
  // generator state is shared, so each node can build its own row in O(n).
  const auto low = static_cast<std::uint64_t>(std::min(u, v));
  const auto high = static_cast<std::uint64_t>(std::max(u, v));
  const std::uint64_t coin = mix64(mix64(seed, low), high);
  return bits_to_unit(coin) < random_pair_probability(n, random_k);
}

std::vector<Rank> plan_neighbors(PlanKind kind, Rank self, int n, const Groups& groups,
                                 int random_k_degree, std::uint64_t seed) {
  if (!in_range(self, n)) return {};
  switch (kind) {
    case PlanKind::AllToAll:
      return all_others(self, n);
    case PlanKind::TopologyAware:
      return topology_aware(self, n, groups);
    case PlanKind::RandomK:
      return random_k_row(self, n, random_k_degree, seed);
    case PlanKind::Relay:
      return own_group(self, n, groups);
    case PlanKind::Hierarchical:  // with no tree to follow: the groups' leaders in a star
      return HierarchyPlan(n, groups, nullptr).neighbors(self);
  }
  return {};
}

}  // namespace tsunagi
