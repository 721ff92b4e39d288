// Routes for the topology-aware plan derived from the switch groups, with no message exchange.
//
// In the topology-aware plan (plan.hpp) every node is connected to every member of its own group
// and to at least one member of every other group. So any destination d is at most two hops
// away: directly, or through one of our neighbours in d's group (which is connected to all of
// that group). Every node received the same groups, so it can read its routes off them in O(1)
// per destination instead of running rounds of distance vector whose tables grow with N — the
// only way routing stays affordable at thousands of processes (docs/architecture.md).
//
// Choices are deterministic: the lowest-ranked usable neighbour in d's group. A neighbour whose
// connection failed or closed is dropped; when no neighbour in d's group is left, the message
// goes to a group-mate (the next one after us in group order that is still connected), which
// has its own neighbour there — three hops.
#pragma once

#include <cstdint>
#include <vector>

#include "tsunagi/model/overlay/route_table.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

class GroupRoutes final : public RouteTable {
 public:
  static constexpr std::uint16_t kUnreachable = 0xFFFF;

  // `groups` as the plan used them (normalise_plan_groups); `neighbors` = the static
  // connections that came up.
  GroupRoutes(Rank self, int n, const Groups& groups, std::vector<Rank> neighbors);

  Rank next_hop(Rank dest) const override;  // kNoRank when unreachable
  std::uint16_t distance(Rank dest) const;  // hops assumed along the chosen route
  void drop_neighbor(Rank neighbor) override;
  bool done() const override { return true; }  // read off the groups at once
  std::vector<Rank> next_hops() const override;
  int known() const override;
  bool complete() const override { return known() == n_; }
  int max_distance() const override;

 private:
  bool usable(Rank neighbor) const;
  Rank first_usable_in_group(int group) const;
  Rank relay_group_mate() const;

  Rank self_;
  int n_;
  int own_group_ = -1;
  std::vector<int> group_of_;                    // rank -> group index
  std::vector<std::vector<Rank>> neighbors_in_;  // group index -> our neighbours there, sorted
  std::vector<Rank> own_members_;                // our group in group order
  std::vector<Rank> neighbors_;                  // sorted
  std::vector<Rank> dropped_;                    // sorted
};

}  // namespace tsunagi
