// Assembling result.json and deciding whether the run succeeded.
#include <algorithm>
#include <cmath>

#include "result_sections.hpp"
#include "tsunagi/runner/results/version.hpp"

namespace tsunagi::runner {

namespace {

using nlohmann::ordered_json;

double seconds(TimeNs ns) {
  return static_cast<double>(ns) / static_cast<double>(kNsPerSec);
}

// Backend counts arrive as doubles; whole numbers are written as integers so that counters
// keep their integer JSON type whichever side produced them.
ordered_json count_value(double value) {
  constexpr double kExactLimit = 9007199254740992.0;  // 2^53: beyond it doubles skip integers
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) <= kExactLimit) {
    return static_cast<std::int64_t>(value);
  }
  return value;
}

// Backend counts with a dotted key overwrite that key ("inference.rtt_probes"); a key that
// would have to pass through a non-object value is left in "backend_counts" only.
void apply_backend_counts(ordered_json& result, const std::map<std::string, double>& counts,
                          detail::NullReasons& nulls) {
  for (const auto& [key, value] : counts) {
    if (key.find('.') == std::string::npos) continue;
    ordered_json* node = &result;
    std::size_t start = 0;
    bool placed = true;
    for (std::size_t dot = key.find('.'); dot != std::string::npos; dot = key.find('.', start)) {
      ordered_json& next = (*node)[key.substr(start, dot - start)];
      if (next.is_null()) next = ordered_json::object();
      if (!next.is_object()) {
        placed = false;
        break;
      }
      node = &next;
      start = dot + 1;
    }
    if (!placed) continue;
    (*node)[key.substr(start)] = count_value(value);
    nulls.erase(key);
  }
}

ordered_json run_section(const RunFacts& facts, const Recorder& recorder,
                         const detail::ReportIndex& reports) {
  ordered_json failed = ordered_json::array();
  for (const ExitEntry& exit : recorder.exits()) {
    if (!exit.ok)
      failed.push_back({{"proc", exit.proc}, {"t_ns", exit.t_ns}, {"reason", exit.reason}});
  }
  ordered_json section = ordered_json::object();
  section["all_exited_ok"] = facts.summary.all_exited_ok;
  section["failure"] = facts.summary.failure;
  // Ctrl-C: the outputs are what the run did until then (interrupt.hpp), never ok.
  section["interrupted"] = facts.summary.interrupted_at >= 0;
  if (facts.summary.interrupted_at >= 0)
    section["interrupted_at_s"] = static_cast<double>(facts.summary.interrupted_at) * 1e-9;
  section["exits"] = recorder.exits().size();
  section["failed_exits"] = std::move(failed);
  // [[faults]] as declared and as fired: only the processes a fault killed explain losses.
  section["faults_declared"] = facts.injected_faults;
  section["killed_by_faults"] = detail::killed_by_faults(recorder);
  section["nodes_reported"] = reports.nodes.size() - reports.missing_nodes.size();
  section["reports"] = recorder.reports().size();
  section["trace_lines"] = recorder.trace().size();
  return section;
}

// Realnet emulation multiplies every link latency (docs/realnet.md, "latency scale"), so its
// makespan is far longer than the scenario's; result.json says by how much, and what the
// makespan is divided by it, so that nobody compares it with a simulator's as it stands.
void note_latency_scale(ordered_json& json, const std::map<std::string, double>& counts) {
  const auto it = counts.find(kLatencyScaleCount);
  if (it == counts.end() || !(it->second > 0) || it->second == 1) return;
  json["latency_scale"] = it->second;
  ordered_json& workload = json["workload"];
  const auto makespan = workload.find("makespan_s");
  if (makespan != workload.end() && makespan->is_number())
    workload["makespan_unscaled_s"] = makespan->get<double>() / it->second;
}

ordered_json backend_counts_object(const std::map<std::string, double>& counts) {
  ordered_json object = ordered_json::object();
  for (const auto& [key, value] : counts) object[key] = count_value(value);
  return object;
}

// Failures of the run itself, as opposed to figures that could not be computed.
std::vector<std::string> run_problems(const RunFacts& facts, const Recorder& recorder,
                                      const ordered_json& result) {
  std::vector<std::string> problems;
  if (facts.summary.interrupted_at >= 0)
    problems.push_back("interrupted (SIGINT) at t = " +
                       std::to_string(static_cast<double>(facts.summary.interrupted_at) * 1e-9) +
                       " s: the outputs hold what the run did until then");
  if (!facts.summary.failure.empty()) problems.push_back("backend: " + facts.summary.failure);
  const ordered_json& failed = result.at("run").at("failed_exits");
  constexpr std::size_t kShown = 5;
  for (std::size_t i = 0; i < failed.size() && i < kShown; ++i) {
    problems.push_back(failed[i]["proc"].get<std::string>() +
                       " exited with failure: " + failed[i]["reason"].get<std::string>());
  }
  if (failed.size() > kShown) {
    problems.push_back("... and " + std::to_string(failed.size() - kShown) +
                       " more processes exited with failure");
  }
  if (!facts.summary.all_exited_ok && failed.empty()) {
    problems.push_back("the backend reports that not every process exited ok");
  }
  if (result.contains("multicast"))
    for (std::string& problem : detail::multicast_problems(result.at("multicast"), facts.processes))
      problems.push_back(std::move(problem));
  if (result.contains("lmmc"))
    for (std::string& problem : detail::lmmc_problems(result.at("lmmc"), facts.processes))
      problems.push_back(std::move(problem));
  // Losses nobody explained: a message neither delivered nor reported undeliverable, and
  // connectivity pairs that got neither an answer nor a notice by the deadline. Only rank 0
  // speaks for the workload, so its verdict alone would miss every other rank's losses. A
  // process a fault killed takes the messages it held with it: those figures stay in
  // result.json but explain themselves. A fault that never fired explains nothing.
  const std::set<std::string> killed = detail::killed_by_faults(recorder);
  for (std::string& problem : detail::loss_problems(result, recorder, killed))
    problems.push_back(std::move(problem));
  const ordered_json& workload = result.at("workload");
  const ordered_json& verified = workload.at("verified");
  // The connectivity workload's one criterion is the timed-out pairs above: when the processes
  // faults killed explain all of them, they explain its verdict too.
  const bool explained = workload.at("name") == "connectivity" &&
                         detail::connectivity_failure_explained(recorder, killed);
  if (verified.is_boolean() && !verified.get<bool>() && !explained) {
    std::string who;
    if (workload.contains("failed_by") && !workload.at("failed_by").empty())
      who = " (verdict of " + workload.at("failed_by").dump() + ")";
    problems.push_back("workload " + workload.at("name").get<std::string>() +
                       " failed its verification" + who);
  }
  for (std::string& problem : detail::inference_problems(result.at("inference")))
    problems.push_back(std::move(problem));
  return problems;
}

// Runs without a workload have nothing to time or verify.
bool expected_null(const std::string& key, const ordered_json& result) {
  if (key == "inference.groups_correct") {
    // Nothing inferred, nothing to be right about (site labels, or a plan without groups).
    const ordered_json* source = find_dotted(result, "inference.groups_source");
    return source != nullptr && *source != "rtt";
  }
  return key.rfind("workload.", 0) == 0 && result.at("workload").at("name") == "none";
}

// One problem per cause, naming every required key that cause left null.
std::vector<std::string> null_problems(const ordered_json& result,
                                       const detail::NullReasons& nulls) {
  std::vector<std::pair<std::string, std::string>> by_cause;  // cause -> keys, first-seen order
  for (const std::string& key : required_result_keys()) {
    const ordered_json* value = find_dotted(result, key);
    if (value != nullptr && !value->is_null()) continue;
    if (nulls.count(key) == 0 && expected_null(key, result)) continue;
    const std::string cause = nulls.count(key) ? nulls.at(key) : "missing from result.json";
    auto it = std::find_if(by_cause.begin(), by_cause.end(),
                           [&](const auto& entry) { return entry.first == cause; });
    if (it == by_cause.end()) {
      by_cause.emplace_back(cause, key);
    } else {
      it->second += ", " + key;
    }
  }
  std::vector<std::string> problems;
  for (const auto& [cause, keys] : by_cause)
    problems.push_back(cause + ", so these are null: " + keys);
  return problems;
}

}  // namespace

const std::vector<std::string>& required_result_keys() {
  static const std::vector<std::string> keys = {"scenario",
                                                "backend",
                                                "seed",
                                                "processes",
                                                "inference.groups",
                                                "inference.groups_correct",
                                                "inference.true_groups_count",
                                                "inference.rtt_probes",
                                                "connections.max_per_node",
                                                "connections.mean_per_node",
                                                "connections.total",
                                                "connections.shortcuts_opened",
                                                "connections.shortcuts_evicted",
                                                "messages.sent",
                                                "messages.delivered",
                                                "messages.relayed",
                                                "workload.name",
                                                "workload.makespan_s",
                                                "workload.verified",
                                                "wall_s",
                                                "simulated_end_s"};
  return keys;
}

const ordered_json* find_dotted(const ordered_json& json, const std::string& dotted) {
  const ordered_json* node = &json;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = dotted.find('.', start);
    const std::string part = dotted.substr(start, dot == std::string::npos ? dot : dot - start);
    if (!node->is_object()) return nullptr;
    auto it = node->find(part);
    if (it == node->end()) return nullptr;
    node = &*it;
    if (dot == std::string::npos) return node;
    start = dot + 1;
  }
}

// Reports with keys the schema does not name (e.g. "rtt_row", the one node's RTT row behind
// paper 000 Fig. 4) are kept under "reports.<key>", the last one of each key winning.
static ordered_json other_reports(const Recorder& recorder) {
  ordered_json out = ordered_json::object();
  for (const ReportEntry& report : recorder.reports()) {
    if (report.key == "node" || report.key == "inference" || report.key == "workload" ||
        report.key == "connectivity" || report.key == "multicast" ||
        report.key == "multicast_rank" || report.key == "lmmc" || report.key == "lmmc_rank" ||
        report.key == "indices")
      continue;  // read into their sections (connectivity: one per rank, into "relay")
    out[report.key] = report.value;
  }
  return out;
}

RunResult build_result(const RunFacts& facts, const Recorder& recorder) {
  detail::NullReasons nulls;
  const detail::ReportIndex reports = detail::index_reports(recorder, facts.processes);
  ordered_json json = ordered_json::object();
  json["schema_version"] = kResultSchemaVersion;
  json["tsunagi_version"] = kTsunagiVersion;
  json["scenario"] = facts.scenario;
  json["scenario_path"] = facts.scenario_path;
  json["backend"] = facts.backend;
  json["seed"] = facts.seed;
  json["processes"] = facts.processes;
  json["ok"] = false;  // placeholders keep the key order readable
  json["problems"] = ordered_json::array();
  json["inference"] = detail::inference_section(reports, facts, nulls);
  json["connections"] = detail::connections_section(reports, nulls);
  json["windows"] = detail::windows_section(reports);
  json["messages"] = detail::messages_section(reports, nulls);
  json["workload"] = detail::workload_section(reports, facts, nulls);
  json["overlay"] = detail::overlay_section(reports);
  json["relay"] = detail::relay_section(recorder, facts);
  if (auto multicast = detail::multicast_section(recorder); !multicast.is_null())
    json["multicast"] = std::move(multicast);
  if (auto lmmc = detail::lmmc_section(recorder); !lmmc.is_null()) json["lmmc"] = std::move(lmmc);
  if (auto indices = detail::indices_section(recorder); !indices.is_null())
    json["indices"] = std::move(indices);
  json["run"] = run_section(facts, recorder, reports);
  json["backend_counts"] = backend_counts_object(recorder.backend_counts());
  json["reports"] = other_reports(recorder);
  json["simulated_end_s"] = seconds(facts.summary.end);
  json["wall_s"] = facts.wall_s;
  note_latency_scale(json, recorder.backend_counts());
  apply_backend_counts(json, recorder.backend_counts(), nulls);

  RunResult result;
  result.problems = run_problems(facts, recorder, json);
  for (std::string& problem : null_problems(json, nulls)) result.problems.push_back(problem);
  json["ok"] = result.problems.empty();
  json["problems"] = result.problems;
  result.json = std::move(json);
  return result;
}

}  // namespace tsunagi::runner
