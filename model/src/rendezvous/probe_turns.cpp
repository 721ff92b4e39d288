// Turns for measuring paths (probe_turns.hpp).
#include "rendezvous/probe_turns.hpp"

namespace tsunagi {

ProbeTurns::Asked ProbeTurns::ask(Rank from, Rank target) {
  if (from == target) return {false, std::string("a turn to measure itself")};
  if (auto it = asked_.find(from); it != asked_.end())
    return {false, "a second turn (rank " + std::to_string(from) + " already asked for rank " +
                       std::to_string(it->second) + ")"};
  asked_[from] = target;
  if (holder_.count(target) == 0) {
    holder_[target] = from;
    return {true, std::nullopt};
  }
  waiting_[target].push_back(from);
  return {false, std::nullopt};
}

std::optional<Rank> ProbeTurns::done(Rank from, Rank target, std::string* refused) {
  auto it = holder_.find(target);
  if (it == holder_.end() || it->second != from) {
    if (refused != nullptr)
      *refused = "done with rank " + std::to_string(target) + " without its turn";
    return std::nullopt;
  }
  holder_.erase(it);
  asked_.erase(from);
  return pass_on(target);
}

// The next waiting rank takes the turn on `target`.
std::optional<Rank> ProbeTurns::pass_on(Rank target) {
  auto queue = waiting_.find(target);
  if (queue == waiting_.end() || queue->second.empty()) return std::nullopt;
  const Rank next = queue->second.front();
  queue->second.pop_front();
  if (queue->second.empty()) waiting_.erase(queue);
  holder_[target] = next;
  return next;
}

std::size_t ProbeTurns::waiting() const {
  std::size_t n = 0;
  for (const auto& [target, ranks] : waiting_) n += ranks.size();
  return n;
}

}  // namespace tsunagi
