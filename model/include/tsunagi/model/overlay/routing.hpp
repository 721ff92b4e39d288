// Routing tables built by message exchange: synchronous-round distance vector.
//
// In round r every node sends each neighbour the destinations it learned in round r-1 (round 0:
// itself). A node moves to round r+1 once it holds round r from every neighbour that has not
// said it was final. Because rounds are synchronous, a destination learned in round r is at
// exactly r+1 hops, and every neighbour on a shortest path announces it in the same round, so
// the next hop (the lowest-ranked such neighbour) does not depend on message timing. A node
// whose table is complete sends one last round marked final and stops; its neighbours stop
// waiting for it. The result is the same table in every backend.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/overlay/route_table.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

class RoutingRounds final : public RouteTable {
 public:
  static constexpr std::uint16_t kUnreachable = 0xFFFF;

  RoutingRounds(Rank self, int n, std::vector<Rank> neighbors);

  // The next round message to send to every neighbour, if one is due. Call after start and
  // after every receive(), repeatedly, until it returns nothing.
  std::optional<wire::RouteRoundMsg> step() override;
  // A round message from neighbour `from`. Returns false (and ignores it) when `from` is not a
  // neighbour or the round is already past.
  bool receive(Rank from, const wire::RouteRoundMsg& msg) override;
  // The connection to `neighbor` is gone: stop waiting for it (routes go around it).
  void drop_neighbor(Rank neighbor) override;

  bool done() const override { return done_; }  // final round sent; nothing more to do
  bool complete() const override { return known_ == n_; }
  std::uint32_t round() const { return round_; }
  Rank next_hop(Rank dest) const override { return next_[static_cast<std::size_t>(dest)]; }
  std::uint16_t distance(Rank dest) const { return dist_[static_cast<std::size_t>(dest)]; }
  std::vector<Rank> next_hops() const override { return next_; }
  int known() const override { return known_; }
  int max_distance() const override;

 private:
  bool learn(Rank dest, std::uint16_t dist, Rank via);
  bool expecting(Rank neighbor) const;
  bool round_inputs_complete() const;
  void apply_round();

  Rank self_;
  int n_;
  std::vector<Rank> neighbors_;
  std::vector<std::uint16_t> dist_;
  std::vector<Rank> next_;
  std::vector<Rank> learned_last_round_;
  std::map<Rank, std::uint32_t> final_round_;
  std::vector<Rank> dropped_;  // sorted   // neighbour -> round of its final message
  std::map<std::uint32_t, std::map<Rank, wire::RouteRoundMsg>> inbox_;  // round -> sender -> msg
  std::uint32_t round_ = 0;
  int known_ = 0;
  bool sent_this_round_ = false;
  bool done_ = false;
};

}  // namespace tsunagi
