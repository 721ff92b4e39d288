// The end of every run, interactive (`tsunagi run`) or collected afterwards (`tsunagi collect`):
// result.json from the scenario's facts and what the recorder saw, trace.jsonl, topology.json,
// relays.dot,
// the summary on stdout. One function, so a collected batch job's files are the ones an
// interactive run of it would have written.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/runner/driver/run_summary.hpp"
#include "tsunagi/runner/results/recorder.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::app {

// What a command adds to the run's own files: files the backend wrote itself (pcaps, Paje), the
// HTML report (`run --report`), and lines that explain a verdict in the summary.
struct RunOutputExtras {
  std::vector<std::filesystem::path> capture_files;
  bool report = false;
  std::function<std::vector<std::string>(const nlohmann::ordered_json& result)> notes;
};

// Writes DIR's files and prints the summary. Returns the exit status of the command:
// kExitOk, or kExitFailed when the run failed or a file could not be written (`command` names
// the command in messages).
int write_run_outputs(const std::filesystem::path& dir, const scenario::Scenario& scenario,
                      const std::string& backend, runner::RunSummary summary, double wall_s,
                      const runner::Recorder& recorder, const std::string& command,
                      const RunOutputExtras& extras = {});

}  // namespace tsunagi::app
