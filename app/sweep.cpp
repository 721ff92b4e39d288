// `tsunagi sweep SCENARIO --set KEY=SPEC ...`: the command line, the grid checked point by point
// before anything runs, the point directories under --out, then the run (here, -j at once, or
// as a Slurm job array: sweep_runner.hpp), OUT/sweep.csv and OUT/summary.csv. Points finished
// before with the same parameters are not run again.
#include "sweep.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "backends.hpp"
#include "cli_choices.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "sweep_process.hpp"
#include "sweep_runner.hpp"
#include "sweep_spec.hpp"
#include "tsunagi/runner/results/output_files.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::app {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

int bad_input(const std::string& message) {
  std::cerr << "tsunagi sweep: " << message << '\n';
  return kExitBadInput;
}

std::string read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace

CLI::App* add_sweep_command(CLI::App& app, SweepOptions& options) {
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "Run a scenario over a grid of --set values (each point one `tsunagi run`, -j at once, "
      "resumable); tabulate the results in OUT/sweep.csv and their mean and 95 % interval over "
      "seeds in OUT/summary.csv");
  sweep->add_option("SCENARIO", options.scenario, "Scenario file (TOML)")->required();
  sweep
      ->add_option("--set", options.sets,
                   "Override a scenario key with one value, a range A..B[:STEP] (integers or "
                   "decimals, 0.1..0.5:0.1), A..B:xR (geometric, 1..1024:x2) or a list a,b,c "
                   "(repeatable; the grid is the product of every multi-valued key)")
      ->type_name("KEY=SPEC")
      ->allow_extra_args(false);
  sweep
      ->add_option("--seeds", options.seeds,
                   "Seeds to sweep: same as --set seed=SPEC; OUT/summary.csv averages over them")
      ->type_name("SPEC");
  sweep->add_option("--costs", options.costs, kCostsOptionHelp)->type_name("FILE");
  sweep->add_option("--backend", options.backend, "Backend to run on")
      ->check(choices(available_backends()))
      ->capture_default_str();
  options.jobs_option = sweep->add_option("-j,--jobs", options.jobs, "Points run at once")
                            ->capture_default_str()
                            ->check(CLI::Range(1U, 1024U));
  sweep->add_option("--out", options.out,
                    "Output directory: one directory per point, sweep.csv and summary.csv "
                    "(default: out/<scenario name>-sweep)");
  sweep
      ->add_option(
          "--columns", options.columns,
          "result.json keys (dotted) for sweep.csv, comma-separated (default: " +
              [] {
                std::string list;
                for (const std::string& c : kDefaultSweepColumns) {
                  list += (list.empty() ? "" : ",") + c;
                }
                return list;
              }() +
              ")")
      ->type_name("KEY,KEY,...")
      ->delimiter(',')
      ->allow_extra_args(false);
  sweep->add_flag("--retry-failed", options.retry_failed,
                  "Run again the points that failed before (exit status not 0)");
  sweep->add_flag("--slurm", options.slurm,
                  "Submit the points as one Slurm job array (sbatch --wait; -j, when given, "
                  "limits how many run at once) and tabulate them as a local sweep does");
  sweep
      ->add_option("--sbatch", options.sbatch,
                   "--slurm: KEY=VALUE for an #SBATCH --KEY=VALUE line of the array script "
                   "(repeatable; KEY= removes one)")
      ->allow_extra_args(false);
  return sweep;
}

int sweep_command(const SweepOptions& options) {
  // A closed stdout or stderr (`| head`) must not kill a sweep midway: writes just fail.
  std::signal(SIGPIPE, SIG_IGN);
  if (!is_available_backend(options.backend)) {
    std::string list;
    for (const std::string& name : available_backends()) list += (list.empty() ? "" : ", ") + name;
    return bad_input("unknown backend '" + options.backend +
                     "'; available: " + (list.empty() ? "none" : list));
  }
  sweep::Grid grid;
  try {
    std::vector<sweep::Axis> axes;
    for (const std::string& set : options.sets) axes.push_back(sweep::parse_set(set));
    if (!options.seeds.empty()) axes.push_back(sweep::parse_set("seed=" + options.seeds));
    grid = sweep::make_grid(axes);
    if (!options.costs.empty())
      for (sweep::Point& point : grid.points)
        point.overrides.insert(point.overrides.begin(), costs_file_override(options.costs));
  } catch (const sweep::SpecError& error) {
    return bad_input(error.what());
  }

  // Every point is loaded and checked before the first one runs: a bad value stops the sweep
  // now, not after hours of runs.
  std::string scenario_name;
  for (const sweep::Point& point : grid.points) {
    try {
      const scenario::Scenario loaded =
          scenario::load_scenario_file(options.scenario, point.overrides);
      if (scenario_name.empty()) {
        scenario_name =
            loaded.name.empty() ? fs::path(options.scenario).stem().string() : loaded.name;
      }
    } catch (const std::exception& error) {
      const std::string where = grid.keys.empty() ? "" : "point " + point.label + ": ";
      return bad_input(where + error.what());
    }
  }

  const std::vector<std::string> columns =
      options.columns.empty() ? kDefaultSweepColumns : options.columns;
  for (const std::string& column : columns) {
    if (column.empty()) return bad_input("--columns: an empty key (two commas in a row?)");
  }

  const fs::path out =
      options.out.empty() ? fs::path("out") / (scenario_name + "-sweep") : fs::path(options.out);
  json identity_base;
  std::string scenario_path;
  try {
    runner::prepare_output_dir(out);
    if (!sweep::lock_file(out / sweep::kLockFileName)) {
      return bad_input("another tsunagi sweep is running into " + out.string() + " (it holds " +
                       (out / sweep::kLockFileName).string() + ")");
    }
    scenario_path = fs::weakly_canonical(fs::absolute(options.scenario)).string();
    identity_base["scenario_fnv1a"] = sweep::fnv1a_hex(read_file_bytes(options.scenario));
    identity_base["backend"] = options.backend;
  } catch (const std::exception& error) {
    return bad_input(error.what());
  }

  std::vector<sweep::PointRun> runs;
  runs.reserve(grid.points.size());
  for (const sweep::Point& point : grid.points) {
    sweep::PointRun run;
    run.point = &point;
    run.dir = out / point.dir_name;
    run.identity = identity_base;
    run.identity["overrides"] = point.overrides;
    sweep::done_before(run, options.retry_failed);
    runs.push_back(std::move(run));
  }

  SweepOptions effective = options;
  effective.columns = columns;
  sweep::Sweep sweep(effective, grid, out, scenario_path, std::move(runs));
  const int interrupted_by = options.slurm ? sweep.run_on_slurm() : sweep.run_all();
  try {
    sweep.write_csv();
  } catch (const std::exception& error) {
    std::cerr << "tsunagi sweep: " << error.what() << '\n';
    return kExitFailed;
  }
  return sweep.print_summary(interrupted_by);
}

}  // namespace tsunagi::app
