// OUT/realnet/run.json: what a realnet run started, written before the processes start (by
// the launcher, or by the Slurm batch script itself), so that the event files can be turned
// into result.json and trace.jsonl later by `tsunagi collect OUT` exactly as the launcher does
// at the end of an interactive run: both build their process records here and replay them with
// replay_run.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "event_replay.hpp"
#include "launch_plan.hpp"
#include "tsunagi/runner/driver/run_summary.hpp"

namespace tsunagi::realnet {

inline constexpr const char* kManifestFileName = "run.json";

// File names are relative to the manifest's directory (as written, so a run's directory can
// be moved or mounted elsewhere and still be collected); absolute ones stay as they are.
struct ManifestProcess {
  std::string label;
  std::string events_file;
  std::string log_file;
};

struct RunManifest {
  std::string scenario;                    // absolute path
  std::vector<std::string> overrides;      // the run's --set list, seed last
  std::string mode;                        // loopback | netns | hosts | slurm
  std::vector<ManifestProcess> processes;  // started ranks in order, rendezvous, relays
  std::vector<Rank> absent;                // ranks never started (fault injection)
  double latency_scale = 0;                // netns only; 0 elsewhere
  nlohmann::json host_costs_not_added;     // host_costs_json: null when none were left out
  std::string dir;  // where run.json is (not written into it): relative names resolve here
};

// `name` resolved against the manifest's directory.
std::string manifest_path(const RunManifest& manifest, const std::string& name);

RunManifest make_manifest(const LaunchPlan& plan, const scenario::Scenario& scenario,
                          const LaunchOptions& options);

nlohmann::json manifest_to_json(const RunManifest& manifest);
// Throws std::invalid_argument naming the file for a missing or malformed manifest.
RunManifest read_manifest(const std::string& work_dir);
void write_manifest(const std::string& work_dir, const RunManifest& manifest);

// One record per process: the started ones in manifest order with absent ranks inserted at
// their rank, each to have its exit synthesized if its file holds none (the caller says why).
std::vector<ProcessRecord> manifest_records(const RunManifest& manifest);

// Replays the records into `observer` and adds the backend counts of the manifest.
ReplayOutcome replay_run(const RunManifest& manifest, const std::vector<ProcessRecord>& records,
                         runner::RunObserver& observer);

// `tsunagi collect`: the event files of WORK_DIR (a batch job's, or a run whose launcher died)
// replayed into `observer`. A process without an exit event gets a failed one at its last
// event, naming its log; the summary fails with the first such process.
runner::RunSummary collect_run(const std::string& work_dir, runner::RunObserver& observer);

// `summary` (how the processes ended: the launcher's process table, or collect's look at the
// event files) completed by the replay, for `run` and `collect` alike: its end on the replayed
// clock, a replay problem as the failure when nothing else failed, and why its groups cannot
// be judged from where it ran (on loopback every process measures loopback RTTs).
runner::RunSummary with_replay(runner::RunSummary summary, const ReplayOutcome& replay,
                               const std::string& mode);

}  // namespace tsunagi::realnet
