// `tsunagi run SCENARIO`: load, run on a backend, write result.json + trace.jsonl, summarise.
#include <chrono>
#include <filesystem>
#include <iostream>

#include "backends.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "summary.hpp"
#include "tsunagi/runner/output_files.hpp"
#include "tsunagi/runner/recorder.hpp"
#include "tsunagi/runner/result.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::app {

namespace fs = std::filesystem;

namespace {

int bad_input(const std::string& message) {
  std::cerr << "tsunagi run: " << message << '\n';
  return kExitBadInput;
}

std::string backend_list() {
  std::string list;
  for (const std::string& name : available_backends()) list += (list.empty() ? "" : ", ") + name;
  return list.empty() ? "none (this build has no backend compiled in)" : list;
}

// --seed N is --set seed=N, applied last so that it wins over any --set seed=.
std::vector<std::string> overrides_of(const RunOptions& options) {
  std::vector<std::string> overrides = options.sets;
  if (options.seed_option != nullptr && options.seed_option->count() > 0) {
    overrides.push_back("seed=" + std::to_string(options.seed));
  }
  return overrides;
}

fs::path output_dir(const RunOptions& options, const scenario::Scenario& scenario) {
  if (!options.out.empty()) return options.out;
  const std::string name =
      scenario.name.empty() ? fs::path(options.scenario).stem().string() : scenario.name;
  return fs::path("out") / name;
}

// A backend that throws still leaves a recorder worth writing: the run failed, and
// result.json says why.
runner::RunSummary run_on_backend(const RunOptions& options, const scenario::Scenario& scenario,
                                  runner::Recorder& recorder, double& wall_s) {
  const auto start = std::chrono::steady_clock::now();
  runner::RunSummary summary;
  try {
    summary = run_backend(options.backend, scenario, recorder, BackendOptions{options.pcap});
  } catch (const std::exception& error) {
    summary.all_exited_ok = false;
    summary.failure = error.what();
  }
  wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace

CLI::App* add_run_command(CLI::App& app, RunOptions& options) {
  CLI::App* run = app.add_subcommand("run",
                                     "Run a scenario on a backend; write result.json and "
                                     "trace.jsonl");
  run->add_option("SCENARIO", options.scenario, "Scenario file (TOML)")->required();
  run->add_option("--backend", options.backend, "Backend to run on")->capture_default_str();
  options.seed_option =
      run->add_option("--seed", options.seed, "Seed of the run (same as --set seed=N)");
  run->add_option("--out", options.out, "Output directory (default: out/<scenario name>)");
  run->add_option("--set", options.sets,
                  "Override a scenario key, e.g. --set placement.processes=8"
                  " (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one pair per --set: a following SCENARIO is not a pair
  run->add_flag("-q,--quiet", options.quiet, "No progress lines on stderr");
  run->add_option("--pcap", options.pcap,
                  "Write per-host packet captures (pcap) into DIR; "
                  "ns3 backend only")
      ->type_name("DIR");
#ifdef TSUNAGI_WITH_REALNET
  // realnet only (docs/realnet.md); they sit in the launcher's options directly.
  realnet::LaunchOptions& rn = realnet_options();
  run->add_option("--net", rn.net, "realnet: loopback, netns (default as root) or slurm")
      ->group("realnet");
  run->add_option("--hosts", rn.hosts_file,
                  "realnet: run on these hosts over ssh (one name per "
                  "line, one line per scenario host)")
      ->group("realnet");
  run->add_flag("--dry-run", rn.dry_run, "realnet: print what would run, run nothing")
      ->group("realnet");
  run->add_option("--latency-scale", rn.latency_scale, "realnet netns: multiply link latencies")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1e6))
      ->group("realnet");
  run->add_option("--rtt-samples-min", rn.rtt_samples_min,
                  "realnet: at least this many RTT "
                  "samples per probe")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000))
      ->group("realnet");
  run->add_option("--timeout", rn.timeout_s, "realnet: give up after this many seconds")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->group("realnet");
  run->add_option("--fault", rn.faults,
                  "realnet tests: kill:RANK@SECONDS or absent:RANK "
                  "(repeatable)")
      ->allow_extra_args(false)
      ->group("realnet");
  run->add_option("--realnet-bin", rn.bin_dir, "realnet: directory of tsunagi-node/-rendezvous")
      ->group("realnet");
#endif
  return run;
}

int run_command(const RunOptions& options) {
  if (!is_available_backend(options.backend)) {
    return bad_input("unknown backend '" + options.backend + "'; available: " + backend_list());
  }
  if (!options.pcap.empty() && options.backend != "ns3") {
    return bad_input("--pcap is implemented by the ns3 backend only (--backend ns3), not by '" +
                     options.backend + "'");
  }
  scenario::Scenario scenario;
  try {
    scenario = scenario::load_scenario_file(options.scenario, overrides_of(options));
  } catch (const scenario::ScenarioError& error) {
    std::cerr << error.what() << '\n';
    return kExitBadInput;
  } catch (const std::exception& error) {
    return bad_input(options.scenario + ": " + error.what());
  }

  const fs::path dir = output_dir(options, scenario);
#ifdef TSUNAGI_WITH_REALNET
  if (options.backend == "realnet") {
    realnet::LaunchOptions& rn = realnet_options();
    rn.overrides = overrides_of(options);
    rn.work_dir = (dir / "realnet").string();  // daemon logs and event files stay for reading
    try {
      if (rn.dry_run) {
        realnet::print_realnet_plan(scenario, rn, std::cout);
        return kExitOk;
      }
      realnet::check_launch_options(scenario, rn);
    } catch (const std::invalid_argument& error) {
      return bad_input(error.what());
    }
  } else if (realnet_options().dry_run || !realnet_options().net.empty() ||
             !realnet_options().hosts_file.empty()) {
    return bad_input("--net, --hosts and --dry-run apply to --backend realnet only");
  }
#endif
  try {
    runner::prepare_output_dir(dir);
  } catch (const runner::OutputError& error) {
    return bad_input(error.what());
  }

  if (!options.pcap.empty()) {
    std::error_code error;
    fs::create_directories(options.pcap, error);
    if (error || !fs::is_directory(options.pcap))
      return bad_input("--pcap " + options.pcap + ": cannot create the directory");
  }

  runner::Recorder recorder([quiet = options.quiet](const std::string& message) {
    if (!quiet) std::cerr << "[tsunagi] " << message << '\n';
  });
  recorder.on_progress("running " + scenario.name + " on " + options.backend + ": " +
                       std::to_string(scenario.protocol.processes) + " processes, seed " +
                       std::to_string(scenario.seed));
  double wall_s = 0;
  runner::RunSummary summary = run_on_backend(options, scenario, recorder, wall_s);
  const runner::RunResult result = runner::build_result(
      runner::facts_from_scenario(scenario, options.backend, std::move(summary), wall_s), recorder);

  const fs::path result_file = dir / runner::kResultFileName;
  const fs::path trace_file = dir / runner::kTraceFileName;
  std::vector<fs::path> more_files;
  try {
    runner::write_result_file(result_file, result.json);
    runner::write_trace_file(trace_file, recorder);
    const fs::path graph_file = dir / runner::kRelayGraphFileName;
    if (runner::write_relay_graph(graph_file, recorder)) more_files.push_back(graph_file);
    const fs::path indices_file = dir / "indices.csv";
    if (runner::write_indices_csv(indices_file, result.json)) more_files.push_back(indices_file);
  } catch (const runner::OutputError& error) {
    std::cerr << "tsunagi run: " << error.what() << '\n';
    return kExitFailed;
  }
  print_run_summary(std::cout, result.json, result_file, trace_file, more_files);
  for (const std::string& problem : result.problems) {
    std::cerr << "tsunagi run: " << problem << '\n';
  }
  return result.ok() ? kExitOk : kExitFailed;
}

}  // namespace tsunagi::app
