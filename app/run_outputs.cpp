// result.json, trace.jsonl, relays.dot and the summary. See run_outputs.hpp.
#include "run_outputs.hpp"

#include <iostream>
#include <vector>

#include "exit_codes.hpp"
#include "summary.hpp"
#include "tsunagi/runner/output_files.hpp"
#include "tsunagi/runner/result.hpp"

namespace tsunagi::app {

namespace fs = std::filesystem;

int write_run_outputs(const fs::path& dir, const scenario::Scenario& scenario,
                      const std::string& backend, runner::RunSummary summary, double wall_s,
                      const runner::Recorder& recorder, const std::string& command) {
  const runner::RunResult result = runner::build_result(
      runner::facts_from_scenario(scenario, backend, std::move(summary), wall_s), recorder);
  const fs::path result_file = dir / runner::kResultFileName;
  const fs::path trace_file = dir / runner::kTraceFileName;
  std::vector<fs::path> more_files;
  try {
    runner::write_result_file(result_file, result.json);
    runner::write_trace_file(trace_file, recorder);
    const fs::path graph_file = dir / runner::kRelayGraphFileName;
    if (runner::write_relay_graph(graph_file, recorder)) more_files.push_back(graph_file);
  } catch (const runner::OutputError& error) {
    std::cerr << command << ": " << error.what() << '\n';
    return kExitFailed;
  }
  print_run_summary(std::cout, result.json, result_file, trace_file, more_files);
  for (const std::string& problem : result.problems)
    std::cerr << command << ": " << problem << '\n';
  return result.ok() ? kExitOk : kExitFailed;
}

}  // namespace tsunagi::app
