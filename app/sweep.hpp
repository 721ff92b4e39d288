// `tsunagi sweep SCENARIO --set KEY=SPEC ...`: runs `tsunagi run` over a grid of overrides, in
// parallel and resumably, and tabulates the results in OUT/sweep.csv (docs/cli.md).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tsunagi::app {

struct SweepOptions {
  std::string scenario;
  std::string backend = "simgrid";
  std::vector<std::string> sets;  // KEY=SPEC, in order
  std::string seeds;              // --seeds SPEC = --set seed=SPEC after every --set
  std::string costs;              // --costs FILE: before every point's --set values
  unsigned jobs = 1;
  std::string out;  // empty = out/<scenario name>-sweep
  std::vector<std::string> columns;
  bool retry_failed = false;
  CLI::Option* jobs_option = nullptr;  // to tell an explicit -j (the array's limit) from none
  bool slurm = false;                  // --slurm: one Slurm job array (sweep_slurm.cpp)
  std::vector<std::string> sbatch;     // --sbatch KEY=VALUE for the array script
};

// result.json keys in sweep.csv when --columns is not given.
inline const std::vector<std::string> kDefaultSweepColumns = {"workload.makespan_ns",
                                                              "connections.max_per_node",
                                                              "connections.static_max_per_node",
                                                              "inference.groups_correct",
                                                              "messages.sent",
                                                              "wall_s"};

CLI::App* add_sweep_command(CLI::App& app, SweepOptions& options);
int sweep_command(const SweepOptions& options);

}  // namespace tsunagi::app
