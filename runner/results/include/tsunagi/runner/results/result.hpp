// result.json: one run's figures, built from the scenario's facts, the recorder and the
// backend's summary. docs/result-schema.md documents every key; tests/unit/test_runner_result.cpp
// guards the schema.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/model/types.hpp"
#include "tsunagi/runner/driver/run_summary.hpp"
#include "tsunagi/runner/results/recorder.hpp"

namespace tsunagi::scenario {
struct Scenario;
}

namespace tsunagi::runner {

// Bumped whenever a key changes meaning or disappears (adding keys does not bump it).
constexpr int kResultSchemaVersion = 1;

// The backend count by which realnet emulation says how much it multiplied every link latency
// (1 or absent: not at all). result.json then adds latency_scale and
// workload.makespan_unscaled_s, and the summary says so.
inline constexpr const char* kLatencyScaleCount = "realnet_latency_scale";

// What the runner knows about a run besides what the processes reported.
struct RunFacts {
  std::string scenario;  // scenario name
  std::string scenario_path;
  std::string backend;
  std::uint64_t seed = 0;
  int processes = 0;     // ranks r0 .. r<processes-1> are expected to report
  std::string workload;  // to_string(WorkloadKind); "none" expects no workload report
  Groups true_groups;    // ground truth, scored against the inferred groups
  std::vector<int> true_switch_parent;  // ground-truth switch tree (scenario switch indices)
  std::vector<int> true_switch_of_rank;
  // Whether the true network meets the exact tree method's assumptions (docs/tree-inference.md):
  // hosts on leaf switches only, every uplink a bottleneck for two host-speed transfers.
  bool tree_assumptions_hold = false;
  // Whether the true network meets the condition under which group inference is guaranteed
  // right (docs/tree-inference.md), and the first switch that breaks it (or why not computed).
  bool groups_condition_holds = false;
  std::string groups_condition;
  // Why the network has no switch tree to score an inferred tree against (a Dragonfly's routers
  // form a graph, not a tree); empty when it has one. Written as inference.tree_correct.
  std::string tree_not_applicable;
  // WAN scenarios (paper 001): the cluster of each rank, and whether the cluster policies let a
  // connection between two clusters' ranks through in at least one direction. Empty without
  // clusters. The relay section scores the connectivity workload against it.
  std::vector<std::string> cluster_names;
  std::vector<int> rank_cluster;
  std::vector<std::vector<bool>> clusters_connectable;
  // [[faults]] the scenario declares (result.json run.faults_declared). Only those that fired
  // explain losses: the exits the backend recorded say which (run.killed_by_faults).
  int injected_faults = 0;
  RunSummary summary;  // how the backend says the run ended
  double wall_s = 0;   // wall-clock seconds the backend ran
};

struct RunResult {
  nlohmann::ordered_json json;        // what goes into result.json
  std::vector<std::string> problems;  // why the run failed; also json["problems"]
  bool ok() const { return problems.empty(); }
};

RunResult build_result(const RunFacts& facts, const Recorder& recorder);

// The facts of a scenario run: this is where ground truth (scenario::true_switch_groups) enters.
RunFacts facts_from_scenario(const scenario::Scenario& scenario, std::string backend,
                             RunSummary summary, double wall_s);

// Keys (dotted paths) that must be present and non-null in a successful run's result.json.
const std::vector<std::string>& required_result_keys();

// Each group sorted, groups ordered by their smallest rank: the form in which inferred and true
// groups are compared.
Groups canonical_groups(Groups groups);

// The value at a dotted path ("inference.groups"), or nullptr when some part is absent.
const nlohmann::ordered_json* find_dotted(const nlohmann::ordered_json& json,
                                          const std::string& dotted);

}  // namespace tsunagi::runner
