// The facts of a run that come from its scenario. Kept apart from the result builder so that
// building a result from synthetic facts (the schema test) needs no scenario code.
#include <algorithm>
#include <utility>

#include "tsunagi/runner/result.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::runner {

namespace {

// Two transfers at host speed h sharing an uplink of bandwidth B each get min(h, B/2); the
// method sees that only if B/2 < (1 - drop) h. Hosts must hang off leaf switches only.
bool tree_assumptions_hold(const scenario::Scenario& scenario) {
  const auto& switches = scenario.network.switches;
  const double drop = scenario.protocol.inference.interference_drop;
  double slowest_host = 0;
  for (const auto& sw : switches)
    if (sw.hosts > 0 && (slowest_host == 0 || sw.host_bandwidth < slowest_host))
      slowest_host = sw.host_bandwidth;
  for (const auto& sw : switches) {
    const bool inner = std::any_of(switches.begin(), switches.end(),
                                   [&](const auto& other) { return other.parent == sw.name; });
    if (inner && sw.hosts > 0) return false;
    if (!sw.parent.empty() && sw.uplink_bandwidth / 2 >= (1 - drop) * slowest_host) return false;
  }
  return true;
}

void add_cluster_facts(const scenario::Scenario& scenario, RunFacts& facts) {
  const auto& clusters = scenario.network.clusters;
  if (clusters.empty()) return;
  for (const auto& cluster : clusters) facts.cluster_names.push_back(cluster.name);
  facts.rank_cluster = scenario::rank_clusters(scenario);
  const std::size_t c = clusters.size();
  facts.clusters_connectable.assign(c, std::vector<bool>(c, true));
  for (std::size_t a = 0; a < c; ++a)
    for (std::size_t b = 0; b < c; ++b) {
      const scenario::Place pa{static_cast<int>(a), false}, pb{static_cast<int>(b), false};
      facts.clusters_connectable[a][b] =
          scenario::policy_outcome(scenario.network, pa, pb) == scenario::ConnectOutcome::Accept ||
          scenario::policy_outcome(scenario.network, pb, pa) == scenario::ConnectOutcome::Accept;
    }
}

}  // namespace

RunFacts facts_from_scenario(const scenario::Scenario& scenario, std::string backend,
                             RunSummary summary, double wall_s) {
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
  if (scenario.network.dragonfly) {
    facts.tree_not_applicable = "not applicable (Dragonfly)";
  } else {
    facts.tree_assumptions_hold = tree_assumptions_hold(scenario);
  }
  add_cluster_facts(scenario, facts);
  facts.summary = std::move(summary);
  facts.wall_s = wall_s;
  return facts;
}

}  // namespace tsunagi::runner
