// `tsunagi collect DIR`: a realnet run's event files (a Slurm batch job's, or a run whose
// launcher died) into DIR/result.json and DIR/trace.jsonl, through the launcher's replay and
// `tsunagi run`'s output code (run_outputs.hpp), so the files are what an interactive run
// writes.
#include <filesystem>
#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "run_outputs.hpp"
#include "tsunagi/runner/results/recorder.hpp"
#include "tsunagi/scenarios/loader.hpp"
#ifdef TSUNAGI_WITH_REALNET
#include "tsunagi/realnet/realnet_backend.hpp"
#endif

namespace tsunagi::app {

namespace fs = std::filesystem;

CLI::App* add_collect_command(CLI::App& app, CollectOptions& options) {
  CLI::App* collect = app.add_subcommand(
      "collect",
      "Turn a realnet run's event files (e.g. a Slurm batch job's) into result.json and "
      "trace.jsonl");
  collect->add_option("DIR", options.dir, "The run's --out directory (holds realnet/run.json)")
      ->required();
  collect->add_flag("-q,--quiet", options.quiet, "No progress lines on stderr");
  return collect;
}

int collect_command(const CollectOptions& options) {
#ifdef TSUNAGI_WITH_REALNET
  const fs::path dir = options.dir;
  const std::string work = (dir / "realnet").string();
  scenario::Scenario scenario;
  try {
    const realnet::CollectedScenario source = realnet::collected_scenario(work);
    scenario = scenario::load_scenario_file(source.path, source.overrides);
  } catch (const scenario::ScenarioError& error) {
    std::cerr << error.what() << '\n';
    return kExitBadInput;
  } catch (const std::exception& error) {
    std::cerr << "tsunagi collect: " << error.what() << '\n';
    return kExitBadInput;
  }
  runner::Recorder recorder([quiet = options.quiet](const std::string& message) {
    if (!quiet) std::cerr << "[tsunagi] " << message << '\n';
  });
  runner::RunSummary summary;
  try {
    summary = realnet::collect_realnet(work, recorder);
  } catch (const std::exception& error) {
    summary.all_exited_ok = false;
    summary.failure = error.what();
  }
  // No launcher watched the job: its wall time is the span of the processes' own records.
  const double wall_s = static_cast<double>(summary.end) / 1e9;
  return write_run_outputs(dir, scenario, "realnet", std::move(summary), wall_s, recorder,
                           "tsunagi collect");
#else
  std::cerr << "tsunagi collect: " << options.dir
            << ": this tsunagi was built without the realnet backend\n";
  return kExitBadInput;
#endif
}

}  // namespace tsunagi::app
