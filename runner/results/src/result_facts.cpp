// The facts of a run that come from its scenario. Kept apart from the result builder so that
// building a result from synthetic facts (the schema test) needs no scenario code.
#include <algorithm>
#include <utility>

#include "group_condition.hpp"
#include "tsunagi/runner/results/result.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::runner {

namespace {

using Switches = std::vector<scenario::SwitchSpec>;

// Index of each switch's parent (-1 for the root).
std::vector<int> parent_indices(const Switches& switches) {
  std::vector<int> parent(switches.size(), -1);
  for (std::size_t i = 0; i < switches.size(); ++i)
    for (std::size_t j = 0; j < switches.size(); ++j)
      if (switches[j].name == switches[i].parent) parent[i] = static_cast<int>(j);
  return parent;
}

bool is_below(const std::vector<int>& parent, int node, int ancestor) {
  for (int at = node; at >= 0; at = parent[at])
    if (at == ancestor) return true;
  return false;
}

// What a transfer between hosts of leaves a and b gets when it runs alone: the slowest link on
// its way (the two host links and every uplink up to their common ancestor).
double alone_rate(const Switches& switches, const std::vector<int>& parent, int a, int b) {
  double rate = std::min(switches[a].host_bandwidth, switches[b].host_bandwidth);
  for (int side : {a, b})
    for (int at = side; parent[at] >= 0 && !is_below(parent, a + b - side, at); at = parent[at])
      rate = std::min(rate, switches[at].uplink_bandwidth);
  return rate;
}

// The method sees two transfers interfere on an uplink of bandwidth U when each gets U/2 there,
// below (1 - drop) of what it gets alone. That must hold for every transfer that crosses each
// uplink: its rate alone is its slowest link, which may be another, slower uplink on its way
// (then the shared one caps it less). A sufficient condition, checked path by path; hosts must
// hang off leaf switches only.
bool tree_assumptions_hold(const scenario::Scenario& scenario) {
  const Switches& switches = scenario.network.switches;
  const double drop = scenario.protocol.inference.interference_drop;
  const std::vector<int> parent = parent_indices(switches);
  std::vector<int> leaves;
  for (std::size_t i = 0; i < switches.size(); ++i) {
    const bool inner = std::find(parent.begin(), parent.end(), static_cast<int>(i)) != parent.end();
    if (inner && switches[i].hosts > 0) return false;
    if (switches[i].hosts > 0) leaves.push_back(static_cast<int>(i));
  }
  for (std::size_t u = 0; u < switches.size(); ++u) {
    if (parent[u] < 0) continue;
    const double shared = switches[u].uplink_bandwidth / 2;
    for (int a : leaves) {
      if (!is_below(parent, a, static_cast<int>(u))) continue;
      for (int b : leaves)
        if (!is_below(parent, b, static_cast<int>(u)) &&
            shared >= (1 - drop) * alone_rate(switches, parent, a, b))
          return false;
    }
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
  const GroupCondition condition = group_condition(scenario);
  facts.groups_condition_holds = condition.holds;
  facts.groups_condition = condition.why;
  if (scenario.network.dragonfly) {
    facts.tree_not_applicable = "not applicable (Dragonfly)";
  } else {
    facts.tree_assumptions_hold = tree_assumptions_hold(scenario);
  }
  facts.injected_faults = static_cast<int>(scenario.faults.size());
  add_cluster_facts(scenario, facts);
  facts.summary = std::move(summary);
  facts.wall_s = wall_s;
  return facts;
}

}  // namespace tsunagi::runner
