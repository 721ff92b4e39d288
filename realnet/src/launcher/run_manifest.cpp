// run.json and the replay shared by the launcher and `tsunagi collect`. See run_manifest.hpp.
#include "run_manifest.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "host_costs.hpp"
#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/runner/results/regular_file.hpp"
#include "tsunagi/runner/results/result.hpp"

namespace tsunagi::realnet {
namespace fs = std::filesystem;

RunManifest make_manifest(const LaunchPlan& plan, const scenario::Scenario& scenario,
                          const LaunchOptions& options) {
  RunManifest manifest;
  manifest.scenario = fs::absolute(scenario.path).string();
  manifest.overrides = options.overrides;
  manifest.mode = plan.mode;
  manifest.dir = plan.work_dir;
  auto relative = [&](const std::string& file) {
    const fs::path path(file);
    return path.parent_path() == fs::path(plan.work_dir) ? path.filename().string() : file;
  };
  auto add = [&](const PlannedProcess& p) {
    manifest.processes.push_back({p.label, relative(p.events_file), relative(p.log_file)});
  };
  for (const PlannedProcess& node : plan.nodes) add(node);
  add(plan.rendezvous);
  for (const PlannedProcess& relay : plan.relays) add(relay);
  manifest.absent = plan.absent;
  manifest.latency_scale = plan.netns ? plan.netns->latency_scale : 0;
  manifest.host_costs_not_added = host_costs_json(scenario.protocol.costs);
  return manifest;
}

nlohmann::json manifest_to_json(const RunManifest& manifest) {
  nlohmann::json processes = nlohmann::json::array();
  for (const ManifestProcess& p : manifest.processes)
    processes.push_back({{"label", p.label}, {"events", p.events_file}, {"log", p.log_file}});
  nlohmann::json json = {
      {"scenario", manifest.scenario}, {"overrides", manifest.overrides},
      {"mode", manifest.mode},         {"processes", processes},
      {"absent", manifest.absent},     {"latency_scale", manifest.latency_scale}};
  if (!manifest.host_costs_not_added.is_null())
    json["host_costs_not_added"] = manifest.host_costs_not_added;
  return json;
}

namespace {

// Why `file` (OUT/realnet/run.json) is not there. Its directory without it is a batch job that
// has not started: `--net slurm --dry-run` made the directory (Slurm opens its log there), and
// the job's script writes run.json as its first step (issue 33: say so, not a bare error).
std::string missing_manifest(const fs::path& file) {
  const fs::path dir = file.parent_path();
  std::error_code error;
  if (fs::is_directory(dir, error))
    return file.string() + ": not found, but " + dir.string() +
           " exists: a batch job whose script has not started yet (it writes run.json first). "
           "Collect once the job has run: sbatch --wait SCRIPT && tsunagi collect " +
           dir.parent_path().string();
  return file.string() +
         ": not found; give the --out directory of a realnet run or batch job (its "
         "realnet/run.json is written before any process starts)";
}

}  // namespace

RunManifest read_manifest(const std::string& work_dir) {
  const fs::path file = fs::path(work_dir) / kManifestFileName;
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(missing_manifest(file));
  try {
    const nlohmann::json json = nlohmann::json::parse(in);
    RunManifest manifest;
    manifest.scenario = json.at("scenario").get<std::string>();
    manifest.overrides = json.at("overrides").get<std::vector<std::string>>();
    manifest.mode = json.at("mode").get<std::string>();
    for (const nlohmann::json& p : json.at("processes"))
      manifest.processes.push_back({p.at("label").get<std::string>(),
                                    p.at("events").get<std::string>(),
                                    p.value("log", std::string())});
    manifest.absent = json.value("absent", std::vector<Rank>{});
    manifest.latency_scale = json.value("latency_scale", 0.0);
    manifest.host_costs_not_added = json.value("host_costs_not_added", nlohmann::json());
    manifest.dir = fs::absolute(work_dir).string();
    return manifest;
  } catch (const nlohmann::json::exception& error) {
    throw std::invalid_argument(file.string() + ": not a tsunagi run manifest (" + error.what() +
                                ")");
  }
}

void write_manifest(const std::string& work_dir, const RunManifest& manifest) {
  const fs::path file = fs::path(work_dir) / kManifestFileName;
  // Never through a link planted in the directory: the launcher may be root.
  runner::write_file_atomically(
      file.string(), [&](std::ostream& out) { out << manifest_to_json(manifest).dump(2) << '\n'; });
}

std::string manifest_path(const RunManifest& manifest, const std::string& name) {
  if (name.empty() || fs::path(name).is_absolute()) return name;
  return (fs::path(manifest.dir) / name).string();
}

std::vector<ProcessRecord> manifest_records(const RunManifest& manifest) {
  std::vector<ProcessRecord> records;
  for (const ManifestProcess& p : manifest.processes)
    records.push_back(ProcessRecord{p.label, manifest_path(manifest, p.events_file), true, 0, {}});
  for (Rank r : manifest.absent)
    records.insert(records.begin() + r, ProcessRecord{runner::process_label(r), "", true, 0,
                                                      "never started (fault injection absent)"});
  return records;
}

ReplayOutcome replay_run(const RunManifest& manifest, const std::vector<ProcessRecord>& records,
                         runner::RunObserver& observer) {
  ReplayOutcome outcome = replay_events(records, observer);
  observer.on_backend_count(runner::kLatencyScaleCount, manifest.latency_scale);
  report_host_costs(manifest.host_costs_not_added, observer);
  return outcome;
}

runner::RunSummary collect_run(const std::string& work_dir, runner::RunObserver& observer) {
  const RunManifest manifest = read_manifest(work_dir);
  std::vector<ProcessRecord> records = manifest_records(manifest);
  runner::RunSummary summary;
  for (ProcessRecord& record : records) {
    if (record.events_file.empty() || has_exit_event(record.events_file)) continue;
    std::string log;
    for (const ManifestProcess& p : manifest.processes)
      if (p.label == record.label) log = manifest_path(manifest, p.log_file);
    record.died_at = kAtLastEvent;
    record.death = "no exit in " + record.events_file +
                   " (the job ended, was cancelled or the process died first; see " + log + ")";
    if (summary.failure.empty()) summary.failure = record.label + ": " + record.death;
  }
  summary.all_exited_ok = summary.failure.empty();
  return with_replay(summary, replay_run(manifest, records, observer), manifest.mode);
}

runner::RunSummary with_replay(runner::RunSummary summary, const ReplayOutcome& replay,
                               const std::string& mode) {
  summary.end = replay.last_exit;
  if (summary.all_exited_ok && !replay.problems.empty()) {
    summary.all_exited_ok = false;
    summary.failure = replay.problems.front();
  }
  if (mode == "loopback")
    summary.topology_hidden =
        "realnet on loopback: every process on 127.0.0.1 measures loopback RTTs, so no switch "
        "can be seen";
  return summary;
}

// A job that wrote run.json but none of its event files has not run its processes yet
// (queued, or starting): collecting it would only fail every process.
void check_events_written(const RunManifest& manifest) {
  std::vector<std::string> looked_for;
  for (const ManifestProcess& p : manifest.processes) {
    const std::string file = manifest_path(manifest, p.events_file);
    std::error_code error;
    if (file.empty()) continue;
    if (fs::exists(file, error)) return;
    looked_for.push_back(file);
  }
  if (looked_for.empty()) return;
  throw std::invalid_argument(
      "the job has not run yet: run.json is there but none of its " +
      std::to_string(looked_for.size()) + " processes has written its event file (looked for " +
      looked_for.front() + (looked_for.size() > 1 ? " and the others beside it" : "") +
      "). It may be queued or starting (squeue shows it); collect once it has run");
}

CollectedScenario collected_scenario(const std::string& work_dir) {
  const RunManifest manifest = read_manifest(work_dir);
  check_events_written(manifest);
  return {manifest.scenario, manifest.overrides};
}

runner::RunSummary collect_realnet(const std::string& work_dir, runner::RunObserver& observer) {
  return collect_run(work_dir, observer);
}

}  // namespace tsunagi::realnet
