#include "tsunagi/model/overlay/routing.hpp"

#include <algorithm>

namespace tsunagi {

RoutingRounds::RoutingRounds(Rank self, int n, std::vector<Rank> neighbors)
    : self_(self),
      n_(n),
      neighbors_(std::move(neighbors)),
      dist_(static_cast<std::size_t>(n), kUnreachable),
      next_(static_cast<std::size_t>(n), kNoRank) {
  std::sort(neighbors_.begin(), neighbors_.end());
  learn(self_, 0, self_);
  learned_last_round_ = {self_};
}

bool RoutingRounds::learn(Rank dest, std::uint16_t dist, Rank via) {
  auto i = static_cast<std::size_t>(dest);
  bool unknown = dist_[i] == kUnreachable;
  // Same distance: keep the lowest-ranked neighbour so the choice is timing-independent.
  if (unknown || dist < dist_[i] || (dist == dist_[i] && via < next_[i])) {
    if (unknown) ++known_;
    bool improved = unknown || dist < dist_[i];
    dist_[i] = dist;
    next_[i] = via;
    return improved;
  }
  return false;
}

void RoutingRounds::drop_neighbor(Rank neighbor) {
  auto it = std::lower_bound(dropped_.begin(), dropped_.end(), neighbor);
  if (it == dropped_.end() || *it != neighbor) dropped_.insert(it, neighbor);
}

bool RoutingRounds::expecting(Rank neighbor) const {
  if (std::binary_search(dropped_.begin(), dropped_.end(), neighbor)) return false;
  auto it = final_round_.find(neighbor);
  return it == final_round_.end() || it->second >= round_;
}

bool RoutingRounds::receive(Rank from, const wire::RouteRoundMsg& msg) {
  if (!std::binary_search(neighbors_.begin(), neighbors_.end(), from)) return false;
  if (msg.round < round_ || done_) return false;
  if (msg.final) final_round_[from] = msg.round;
  inbox_[msg.round][from] = msg;
  return true;
}

bool RoutingRounds::round_inputs_complete() const {
  auto it = inbox_.find(round_);
  for (Rank nb : neighbors_) {
    if (!expecting(nb)) continue;
    if (it == inbox_.end() || it->second.count(nb) == 0) return false;
  }
  return true;
}

void RoutingRounds::apply_round() {
  learned_last_round_.clear();
  auto it = inbox_.find(round_);
  if (it != inbox_.end()) {
    // std::map iterates senders in ascending rank: ties go to the lowest neighbour.
    for (const auto& [sender, msg] : it->second) {
      for (const auto& entry : msg.entries) {
        if (entry.dest < 0 || entry.dest >= n_ || entry.dist >= kUnreachable - 1) continue;
        if (learn(entry.dest, static_cast<std::uint16_t>(entry.dist + 1), sender)) {
          learned_last_round_.push_back(entry.dest);
        }
      }
    }
    inbox_.erase(it);
  }
  std::sort(learned_last_round_.begin(), learned_last_round_.end());
  learned_last_round_.erase(std::unique(learned_last_round_.begin(), learned_last_round_.end()),
                            learned_last_round_.end());
  ++round_;
  sent_this_round_ = false;
}

std::optional<wire::RouteRoundMsg> RoutingRounds::step() {
  if (done_) return std::nullopt;
  if (sent_this_round_) {
    if (!round_inputs_complete()) return std::nullopt;
    apply_round();
  }
  wire::RouteRoundMsg msg;
  msg.round = round_;
  msg.entries.reserve(learned_last_round_.size());
  for (Rank dest : learned_last_round_) {
    msg.entries.push_back({dest, dist_[static_cast<std::size_t>(dest)]});
  }
  // A round that taught nothing means nothing further away exists: hop distances along a
  // shortest path are contiguous, so the table holds every reachable destination.
  msg.final = complete() || (round_ > 0 && learned_last_round_.empty());
  sent_this_round_ = true;
  if (msg.final) done_ = true;
  return msg;
}

int RoutingRounds::max_distance() const {
  int best = 0;
  for (auto d : dist_) {
    if (d != kUnreachable) best = std::max(best, static_cast<int>(d));
  }
  return best;
}

}  // namespace tsunagi
