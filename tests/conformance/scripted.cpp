// Scripted processes and the outcome of a run: see world.hpp.
#include <type_traits>

#include "world.hpp"

namespace tsunagi::conformance {

void Scripted::handle(Input& input) {
  if (const auto* started = std::get_if<StartedInput>(&input.event)) {
    rank_ = started->rank;
    self_ = started->self;
  }
  record_->push_back(input);
  script_(*this, input);
}

std::optional<ConnId> conn_of(const InputEvent& event) {
  return std::visit(
      [](const auto& e) -> std::optional<ConnId> {
        using T = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<T, ConnectedInput> || std::is_same_v<T, AcceptedInput> ||
                      std::is_same_v<T, ConnectFailedInput> || std::is_same_v<T, ReceivedInput> ||
                      std::is_same_v<T, ClosedInput>)
          return e.conn;
        else
          return std::nullopt;
      },
      event);
}

std::vector<Input> Outcome::about(Rank rank, ConnId conn) const {
  std::vector<Input> found;
  for (const Input& input : all(rank))
    if (conn_of(input.event) == conn) found.push_back(input);
  return found;
}

const std::vector<Input>& Outcome::all(Rank rank) const {
  static const std::vector<Input> kNone;
  auto it = inputs.find(rank);
  return it == inputs.end() ? kNone : it->second;
}

std::optional<ExitRecord> Outcome::exit_of(const std::string& proc) const {
  for (const ExitRecord& exit : exits)
    if (exit.proc == proc) return exit;
  return std::nullopt;
}

Script leave_at_start() {
  return [](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ExitCmd{true, "no script: leaves at once"});
  };
}

Script wait_for_ranks(const std::vector<ExitRecord>& exits, int ranks, TimeNs limit) {
  constexpr TimeNs kLookEvery = 10 * kNsPerMs;
  return [&exits, ranks, limit](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ArmTimerCmd{0, input.now + kLookEvery});
      return;
    }
    if (!std::holds_alternative<TimerFiredInput>(input.event)) return;
    int exited = 0;
    for (const ExitRecord& exit : exits)
      if (exit.proc != runner::process_label(kNoRank)) ++exited;
    if (exited >= ranks)
      self.command(ExitCmd{true, "all ranks exited"});
    else if (input.now >= limit)
      self.command(ExitCmd{false, std::to_string(ranks - exited) + " ranks still running"});
    else
      self.command(ArmTimerCmd{0, input.now + kLookEvery});
  };
}

Script script_for(const Scripts& scripts, Rank rank, const std::vector<ExitRecord>& exits,
                  int ranks, std::chrono::seconds limit) {
  auto it = scripts.find(rank);
  if (it != scripts.end()) return it->second;
  if (rank != kNoRank) return leave_at_start();
  return wait_for_ranks(exits, ranks, std::chrono::nanoseconds(limit).count());
}

}  // namespace tsunagi::conformance
