// The facts of a run that come from its scenario. Kept apart from the result builder so that
// building a result from synthetic facts (the schema test) needs no scenario code.
#include <utility>

#include "tsunagi/runner/result.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::runner {

RunFacts facts_from_scenario(const scenario::Scenario& scenario, std::string backend,
                             BackendSummary summary, double wall_s) {
  RunFacts facts;
  facts.scenario = scenario.name;
  facts.scenario_path = scenario.path;
  facts.backend = std::move(backend);
  facts.seed = scenario.seed;
  // The loader fills protocol.processes; the fallback keeps hand-built scenarios working.
  facts.processes = scenario.protocol.processes > 0 ? scenario.protocol.processes
                                                    : scenario::process_count(scenario);
  facts.workload = to_string(scenario.protocol.workload.kind);
  facts.true_groups = scenario::true_switch_groups(scenario);
  const scenario::SwitchTreeTruth tree = scenario::true_switch_tree(scenario);
  facts.true_switch_parent = tree.switch_parent;
  facts.true_switch_of_rank = tree.switch_of_rank;
  facts.summary = std::move(summary);
  facts.wall_s = wall_s;
  return facts;
}

}  // namespace tsunagi::runner
