// Scalable group inference, run by the rendezvous: one leader at a time (the lowest rank not
// yet placed) measures its RTT to every rank not yet placed; the near side of its sorted row
// (paper 000 §2.1's cut, at the innermost significant step) plus its host-mates becomes its
// group. About N·G/2 probes
// for G groups instead of N(N−1). Each leader's row only contains ranks still unplaced, so a
// group found later cannot steal members of an earlier one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/topology/switch_inference.hpp"

namespace tsunagi {

class LeaderRounds {
 public:
  struct Order {
    Rank leader = kNoRank;
    std::vector<Rank> targets;
  };

  LeaderRounds(const std::vector<std::string>& hosts, const InferenceConfig& config);

  // The next leader and whom it measures; nullopt when every rank is placed. Leaders with
  // nobody left to measure are placed at once (they and their host-mates).
  std::optional<Order> next();
  // The leader's measured row. Ignored unless it answers the order in flight.
  void on_row(Rank leader, std::vector<RttSample> row);
  bool waiting() const { return leader_ != kNoRank; }
  const Groups& groups() const { return groups_; }
  std::uint64_t probes() const { return probes_; }

 private:
  void place(Rank leader, const std::vector<Rank>& near);

  std::vector<std::string> hosts_;
  InferenceConfig config_;
  std::vector<bool> placed_;
  Groups groups_;
  Rank leader_ = kNoRank;
  std::uint64_t probes_ = 0;
};

}  // namespace tsunagi
