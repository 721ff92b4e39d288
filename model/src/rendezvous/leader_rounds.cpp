#include "rendezvous/leader_rounds.hpp"

#include <algorithm>

namespace tsunagi {

LeaderRounds::LeaderRounds(const std::vector<std::string>& hosts, const InferenceConfig& config)
    : hosts_(hosts), config_(config), placed_(hosts.size(), false) {
  // A leader's row holds only the ranks still unplaced: switches near it may be gone, so two
  // steps further out can merge into one larger than the own switch's, and the largest-step
  // rule would cut past the switch. The innermost significant step needs only the own switch
  // in the row, which it is while every earlier group was a switch (docs/tree-inference.md,
  // "The partition method": the same argument).
  config_.tie_tolerance = 1.0;
}

std::optional<LeaderRounds::Order> LeaderRounds::next() {
  if (leader_ != kNoRank) return std::nullopt;
  while (true) {
    const auto first = std::find(placed_.begin(), placed_.end(), false);
    if (first == placed_.end()) return std::nullopt;
    const auto leader = static_cast<Rank>(first - placed_.begin());
    Order order{leader, {}};
    for (std::size_t r = 0; r < placed_.size(); ++r) {
      const bool mate = hosts_[r] == hosts_[static_cast<std::size_t>(leader)] && !hosts_[r].empty();
      if (!placed_[r] && static_cast<Rank>(r) != leader && !mate)
        order.targets.push_back(static_cast<Rank>(r));
    }
    if (order.targets.empty()) {
      place(leader, {});
      continue;
    }
    leader_ = leader;
    probes_ += order.targets.size();
    return order;
  }
}

void LeaderRounds::on_row(Rank leader, std::vector<RttSample> row) {
  if (leader != leader_ || leader_ == kNoRank) return;
  // Only answers about ranks still unplaced count.
  std::erase_if(row, [&](const RttSample& s) {
    return s.peer < 0 || static_cast<std::size_t>(s.peer) >= placed_.size() ||
           placed_[static_cast<std::size_t>(s.peer)] || s.rtt <= 0;
  });
  const SwitchView view = infer_own_switch(std::move(row), config_);
  leader_ = kNoRank;
  place(leader, view.near);
}

void LeaderRounds::place(Rank leader, const std::vector<Rank>& near) {
  std::vector<Rank> group{leader};
  const std::string& host = hosts_[static_cast<std::size_t>(leader)];
  for (std::size_t r = 0; r < placed_.size(); ++r) {
    const bool mate = !host.empty() && hosts_[r] == host && static_cast<Rank>(r) != leader;
    if (mate && !placed_[r]) group.push_back(static_cast<Rank>(r));
  }
  for (Rank r : near)
    if (!placed_[static_cast<std::size_t>(r)]) group.push_back(r);
  std::sort(group.begin(), group.end());
  group.erase(std::unique(group.begin(), group.end()), group.end());
  for (Rank r : group) placed_[static_cast<std::size_t>(r)] = true;
  groups_.push_back(std::move(group));
}

}  // namespace tsunagi
