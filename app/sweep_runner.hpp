// A sweep's run: the points of the grid, run here as child processes (-j at once, Ctrl-C stops
// them; sweep_runner.cpp) or as one Slurm job array (sweep_slurm.cpp), then tabulated in
// OUT/sweep.csv and OUT/summary.csv with a summary (sweep_table.cpp).
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "sweep.hpp"
#include "sweep_points.hpp"
#include "sweep_process.hpp"
#include "sweep_spec.hpp"

namespace tsunagi::app::sweep {

class Sweep {
 public:
  Sweep(const SweepOptions& options, const sweep::Grid& grid, std::filesystem::path out,
        std::string scenario_path, std::vector<PointRun> runs)
      : options_(options),
        grid_(grid),
        out_(std::move(out)),
        scenario_path_(std::move(scenario_path)),
        runs_(std::move(runs)) {}

  // Runs what is not done here, -j at once; returns the signal that interrupted it, or 0.
  int run_all();
  // The same points as one Slurm job array (sweep_slurm.cpp), waited for; same return.
  int run_on_slurm();
  // OUT/sweep.csv and OUT/summary.csv (sweep_summary.hpp).
  void write_csv() const;
  int print_summary(int interrupted_by) const;

 private:
  void start(PointRun& run);
  void finish(PointRun& run, int status);
  void progress(const PointRun& run) const;
  void stop_children(const sweep::BlockedSignals& signals);
  std::vector<PointRun*> pending_points();
  void announce(const char* where) const;

  const SweepOptions& options_;
  const sweep::Grid& grid_;
  std::filesystem::path out_;
  std::string scenario_path_;
  std::vector<PointRun> runs_;
  std::vector<PointRun*> running_;
  std::size_t finished_ = 0;  // done before + finished now (the k of [k/N])
  std::size_t run_now_ = 0;   // finished now
  std::size_t to_run_ = 0;    // points this invocation runs
  double run_wall_s_ = 0;     // sum of the wall times of the points finished now
  std::chrono::steady_clock::time_point loop_start_;
};

}  // namespace tsunagi::app::sweep
