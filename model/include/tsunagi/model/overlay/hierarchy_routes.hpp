// Routes over the hierarchical plan (overlay/hierarchy.hpp), read off the node's placement with
// no message exchange. A member sends everything outside its group to its leader; a leader
// sends a rank beneath it to the child leader it sits under and anything else to its parent
// leader, so a message climbs the tree of leaders until the subtree that holds its destination,
// then descends: at most 2 + up + height hops (member, leaders up, leaders down, member).
//
// A group is a clique, so a group-mate whose own connection failed is reached through another
// group-mate (the lowest one still connected). A failed leader link cuts its group off from the
// rest: those destinations are unreachable (kNoRank), reported, never guessed.
#pragma once

#include <cstdint>
#include <vector>

#include "tsunagi/model/overlay/hierarchy.hpp"
#include "tsunagi/model/overlay/route_table.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

class HierarchyRoutes final : public RouteTable {
 public:
  // `neighbors` = the static connections that came up.
  HierarchyRoutes(Rank self, int n, Placement placement, std::vector<Rank> neighbors);

  Rank next_hop(Rank dest) const override;  // kNoRank when unreachable
  void drop_neighbor(Rank neighbor) override;
  bool done() const override { return true; }
  std::vector<Rank> next_hops() const override;  // O(N): for trace_full_routes only
  std::uint64_t digest() const override;         // O(own table): what the table is built from
  int known() const override;
  bool complete() const override { return known() == n_; }
  int max_distance() const override;  // the bound 2 + up + height (1 + ... at a leader)

 private:
  bool usable(Rank neighbor) const;
  bool in_group(Rank rank) const;
  Rank via_group_mate(Rank dest) const;
  Rank below_via(Rank dest) const;  // kNoRank: not beneath us
  bool leader() const { return self_ == placement_.links.leader; }

  Rank self_;
  int n_;
  Placement placement_;
  std::vector<Rank> neighbors_;  // sorted
  std::vector<Rank> dropped_;    // sorted
};

}  // namespace tsunagi
