#include "scripted_process.hpp"

#include <utility>

namespace tsunagi::test {

void ScriptedProcess::handle(Input& input) {
  if (const auto* started = std::get_if<StartedInput>(&input.event)) {
    rank_ = started->rank;
    self_ = started->self;
  }
  if (record_ != nullptr) record_->push_back(input);
  script_(*this, input);
}

void ScriptedRun::run(const scenario::Scenario& scenario, runner::RunObserver& observer) {
  const int ranks = scenario::process_count(scenario);
  for (Rank r = kNoRank; r < ranks; ++r) inputs[r];  // stable addresses before the run
  auto script_for = [this](Rank rank) -> Script {
    auto it = scripts.find(rank);
    if (it != scripts.end()) return it->second;
    // Without a script a process leaves at once, the rendezvous too: no backend stops a
    // process for it (docs/backend-contract.md).
    return [](ScriptedProcess& self, const Input& input) {
      if (std::holds_alternative<StartedInput>(input.event))
        self.command(ExitCmd{true, "nothing to do"});
    };
  };
  summary = sim::simgrid::run_simgrid_with(
      scenario, observer,
      runner::ProcessFactories{[&](Rank rank) {
                                 return std::make_unique<ScriptedProcess>(
                                     script_for(rank), record ? &inputs[rank] : nullptr);
                               },
                               [&] {
                                 return std::make_unique<ScriptedProcess>(
                                     script_for(kNoRank), record ? &inputs[kNoRank] : nullptr);
                               }});
}

Endpoint endpoint_of(const scenario::Scenario& scenario, Rank rank) {
  const auto hosts = scenario::enumerate_hosts(scenario.network);
  const auto host_of = scenario::rank_to_host(scenario);
  return hosts[static_cast<std::size_t>(host_of[static_cast<std::size_t>(rank)])].host + ":0";
}

}  // namespace tsunagi::test
