// result.json, trace.jsonl, topology.json, relays.dot, indices.csv, messages.csv, the report
// and the summary. See run_outputs.hpp.
#include "run_outputs.hpp"

#include <iostream>
#include <sstream>
#include <vector>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "summary.hpp"
#include "tsunagi/runner/results/output_files.hpp"
#include "tsunagi/runner/results/result.hpp"
#include "tsunagi/runner/results/topology_file.hpp"

namespace tsunagi::app {

namespace fs = std::filesystem;

int write_run_outputs(const fs::path& dir, const scenario::Scenario& scenario,
                      const std::string& backend, runner::RunSummary summary, double wall_s,
                      const runner::Recorder& recorder, const std::string& command,
                      const RunOutputExtras& extras) {
  const runner::RunResult result = runner::build_result(
      runner::facts_from_scenario(scenario, backend, std::move(summary), wall_s), recorder);
  const fs::path result_file = dir / runner::kResultFileName;
  const fs::path trace_file = dir / runner::kTraceFileName;
  std::vector<fs::path> more_files;
  try {
    runner::write_result_file(result_file, result.json);
    runner::write_trace_file(trace_file, recorder);
    const fs::path topology_file = dir / runner::kTopologyFileName;
    runner::write_topology_file(topology_file, scenario);
    more_files.push_back(topology_file);
    const fs::path graph_file = dir / runner::kRelayGraphFileName;
    if (runner::write_relay_graph(graph_file, recorder)) more_files.push_back(graph_file);
    const fs::path indices_file = dir / runner::kIndicesFileName;
    if (runner::write_indices_csv(indices_file, result.json)) more_files.push_back(indices_file);
    const fs::path messages_file = dir / runner::kMessagesFileName;
    if (runner::write_messages_csv(messages_file, recorder)) {
      more_files.push_back(messages_file);
    } else {
      std::error_code ignored;  // an earlier run's arrows must not be drawn on this one
      fs::remove(messages_file, ignored);
    }
  } catch (const runner::OutputError& error) {
    std::cerr << command << ": " << error.what() << '\n';
    return kExitFailed;
  }
  more_files.insert(more_files.end(), extras.capture_files.begin(), extras.capture_files.end());
  // A report that cannot be written fails the command, after the summary of the run it is of.
  bool report_ok = true;
  if (extras.report) {
    std::ostringstream report_files;
    report_ok = write_report(dir.string(), report_files) == kExitOk;
    std::istringstream lines(report_files.str());
    for (std::string line; std::getline(lines, line);) more_files.emplace_back(line);
  }
  print_run_summary(std::cout, result.json, result_file, trace_file, more_files,
                    extras.notes ? extras.notes(result.json) : std::vector<std::string>{});
  for (const std::string& problem : result.problems)
    std::cerr << command << ": " << problem << '\n';
  return result.ok() && report_ok ? kExitOk : kExitFailed;
}

}  // namespace tsunagi::app
