// `tsunagi run SCENARIO`: load, run on a backend, write result.json + trace.jsonl, summarise.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "backends.hpp"
#include "cli_choices.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "run_outputs.hpp"
#include "tsunagi/runner/driver/interrupt.hpp"
#include "tsunagi/runner/results/output_files.hpp"
#include "tsunagi/runner/results/recorder.hpp"
#include "tsunagi/runner/results/result.hpp"
#include "tsunagi/runner/results/topology_file.hpp"
#include "tsunagi/runner/results/verdicts.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::app {

namespace fs = std::filesystem;

namespace {

int bad_input(const std::string& message) {
  std::cerr << "tsunagi run: " << message << '\n';
  return kExitBadInput;
}

// The realnet options given on the command line ("--latency-scale, --net"); "" when none.
std::string realnet_only_options_given(const RunOptions& options) {
  std::string given;
  if (options.command == nullptr) return given;
  for (const CLI::Option* option : options.command->get_options())
    if (option->get_group() == "realnet" && option->count() > 0)
      given += (given.empty() ? "" : ", ") + option->get_name();
  return given;
}

std::string backend_list() {
  std::string list;
  for (const std::string& name : available_backends()) list += (list.empty() ? "" : ", ") + name;
  return list.empty() ? "none (this build has no backend compiled in)" : list;
}

// The files the backend wrote itself: one pcap per host (ns-3), SimGrid's Paje trace.
void list_capture_files(const RunOptions& options, std::vector<fs::path>& files) {
  if (!options.paje.empty() && fs::exists(options.paje)) files.emplace_back(options.paje);
  if (options.pcap.empty()) return;
  std::vector<fs::path> pcaps;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(options.pcap, error))
    if (entry.path().extension() == ".pcap") pcaps.push_back(entry.path());
  std::sort(pcaps.begin(), pcaps.end());
  if (pcaps.size() <= 4) {
    files.insert(files.end(), pcaps.begin(), pcaps.end());
  } else {
    files.emplace_back((fs::path(options.pcap) / "*.pcap").string() + " (" +
                       std::to_string(pcaps.size()) + " packet captures, one per host)");
  }
}

// Lines the summary adds where a verdict needs explaining.
std::vector<std::string> summary_notes(const RunOptions& options,
                                       const nlohmann::ordered_json& result) {
  std::vector<std::string> notes;
#ifdef TSUNAGI_WITH_REALNET
  const realnet::LaunchOptions& rn = realnet_options();
  const bool loopback =
      rn.net == "loopback" || (rn.net.empty() && rn.hosts_file.empty() && geteuid() != 0);
  if (options.backend == "realnet" && loopback && runner::groups_verdict(result) == "WRONG")
    notes.push_back(
        "on loopback every process shares one host, so RTTs cannot show switches and the "
        "groups cannot come out right; run in namespaces (--net netns, as root) to see them");
#else
  (void)options;
  (void)result;
#endif
  return notes;
}

// --costs FILE first (an explicit --set wins over the file), --seed N (= --set seed=N) last so
// that it wins over any --set seed=.
std::vector<std::string> overrides_of(const RunOptions& options) {
  std::vector<std::string> overrides;
  if (!options.costs.empty()) overrides.push_back(costs_file_override(options.costs));
  overrides.insert(overrides.end(), options.sets.begin(), options.sets.end());
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
    summary = run_backend(options.backend, scenario, recorder,
                          BackendOptions{options.pcap, options.paje});
  } catch (const std::exception& error) {
    summary.all_exited_ok = false;
    summary.failure = error.what();
  }
  wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace

std::string costs_file_override(const std::string& file) {
  return std::string(scenario::kCostsFileOverride) + fs::absolute(file).string();
}

CLI::App* add_run_command(CLI::App& app, RunOptions& options) {
  CLI::App* run = app.add_subcommand("run",
                                     "Run a scenario on a backend; write result.json and "
                                     "trace.jsonl");
  run->add_option("SCENARIO", options.scenario, "Scenario file (TOML)")->required();
  run->add_option("--backend", options.backend, "Backend to run on: " + backend_list())
      ->check(choices(available_backends()))
      ->capture_default_str();
  options.seed_option =
      run->add_option("--seed", options.seed, "Seed of the run (same as --set seed=N)");
  run->add_option("--out", options.out, "Output directory (default: out/<scenario name>)");
  run->add_option("--set", options.sets,
                  "Override a scenario key, e.g. --set placement.processes=8"
                  " (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one pair per --set: a following SCENARIO is not a pair
  run->add_option("--costs", options.costs, kCostsOptionHelp)->type_name("FILE");
  run->add_flag("-q,--quiet", options.quiet, "No progress lines on stderr");
  run->add_option("--pcap", options.pcap,
                  "Write per-host packet captures (pcap) into DIR; "
                  "ns3 backend only")
      ->type_name("DIR");
  run->add_option("--paje", options.paje,
                  "Write SimGrid's Paje trace of the run to FILE (ViTE, pj_dump); "
                  "simgrid backend only")
      ->type_name("FILE");
  run->add_flag("--report", options.report,
                "Also write DIR/report.html and its figures (same as tsunagi report DIR)");
  options.command = run;
#ifdef TSUNAGI_WITH_REALNET
  // realnet only (docs/realnet.md); they sit in the launcher's options directly.
  realnet::LaunchOptions& rn = realnet_options();
  run->add_option("--net", rn.net, "realnet: loopback, netns (default as root) or slurm")
      ->check(choices({"loopback", "netns", "slurm"}))
      ->group("realnet");
  run->add_option("--hosts", rn.hosts_file,
                  "realnet: run on these hosts over ssh (one name per "
                  "line, one line per scenario host)")
      ->group("realnet");
  run->add_flag("--dry-run", rn.dry_run, "realnet: print what would run, run nothing")
      ->group("realnet");
  run->add_option("--latency-scale", rn.latency_scale,
                  "realnet netns: multiply link latencies (default 50; 1 for site_rtt WANs)")
      ->check(CLI::Range(0.0, 1e6))
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
  run->add_option("--ssh", rn.ssh_command,
                  "realnet --hosts: command that runs a command on a host (HOST -- CMD "
                  "appended)")
      ->capture_default_str()
      ->group("realnet");
  run->add_option("--launch-prefix", rn.launch_prefix,
                  "realnet --hosts/slurm: words put before every daemon's command on its "
                  "machine")
      ->group("realnet");
  run->add_option("--secret-file", rn.secret_file,
                  "realnet: the run's secret from this file (mode 0600, shared by every host); "
                  "default: a fresh secret for every run")
      ->group("realnet");
  run->add_option("--sbatch", rn.sbatch,
                  "realnet slurm: KEY=VALUE for an #SBATCH --KEY=VALUE line of the script "
                  "(repeatable; KEY= removes one)")
      ->allow_extra_args(false)
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
  if (!options.paje.empty() && options.backend != "simgrid") {
    return bad_input("--paje is SimGrid's own tracing (--backend simgrid), not '" +
                     options.backend + "'s; ns-3 runs write packets with --pcap DIR, and every " +
                     "backend writes trace.jsonl (tsunagi report draws its timeline)");
  }
  if (const std::string given = realnet_only_options_given(options);
      !given.empty() && options.backend != "realnet") {
    return bad_input(given + " appl" + (given.find(',') == std::string::npos ? "ies" : "y") +
                     " to --backend realnet only, not to '" + options.backend +
                     "' (a simulator's latencies are the scenario's: change them with --set)");
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
  // Ctrl-C stops a simulated run and keeps what it did (runner/interrupt.hpp); realnet's
  // launcher handles its own signals and cleans up its namespaces.
  if (options.backend != "realnet") runner::install_interrupt_handler();
  runner::RunSummary summary = run_on_backend(options, scenario, recorder, wall_s);
  const bool interrupted = summary.interrupted_at >= 0;
  RunOutputExtras extras;
  list_capture_files(options, extras.capture_files);
  extras.report = options.report;
  extras.notes = [&options](const nlohmann::ordered_json& result) {
    return summary_notes(options, result);
  };
  const int status = write_run_outputs(dir, scenario, options.backend, std::move(summary), wall_s,
                                       recorder, "tsunagi run", extras);
  return interrupted ? kExitInterrupted : status;
}

}  // namespace tsunagi::app
