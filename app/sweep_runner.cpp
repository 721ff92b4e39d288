// Running a sweep's points here, -j at once. See sweep_runner.hpp.
#include "sweep_runner.hpp"

#include <algorithm>
#include <csignal>
#include <iostream>
#include <sstream>

#include "exit_codes.hpp"
#include "sweep_results.hpp"
#include "tsunagi/runner/results/output_files.hpp"

namespace tsunagi::app::sweep {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kStopGraceS = 5.0;  // after SIGTERM, before SIGKILL

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

void Sweep::start(PointRun& run) {
  run.start = Clock::now();
  std::error_code error;
  fs::create_directories(run.dir, error);
  if (error || !fs::is_directory(run.dir)) {
    run.reason = "cannot create " + run.dir.string() +
                 (error ? ": " + error.message() : ": not a directory");
    finish(run, kExitBadInput);
    return;
  }
  // Nothing of an earlier run may pass for this one: no parameters file until it has ended.
  fs::remove(run.dir / kPointFileName, error);
  fs::remove(run.dir / runner::kResultFileName, error);
  const std::vector<std::string> argv = point_command(options_, run, self_executable());
  try {
    run.pid =
        spawn_child("/proc/self/exe", argv, run.dir / kStdoutFileName, run.dir / kStderrFileName);
  } catch (const std::exception& failure) {
    run.reason = failure.what();
    finish(run, kExitBadInput);
    return;
  }
  running_.push_back(&run);
}

void Sweep::finish(PointRun& run, int status) {
  run.wall_s = seconds_since(run.start);
  run.exit_status = status;
  run.pid = 0;
  ++finished_;
  ++run_now_;
  run_wall_s_ += run.wall_s;
  if (status != kExitOk && run.reason.empty()) {
    run.reason = status >= 128 ? "killed by signal " + std::to_string(status - 128)
                               : failure_reason(run.dir / kStderrFileName);
  }
  // A child that ended by a signal did not finish its run: no parameters file, so a later
  // sweep runs it again.
  if (status < 128 && fs::is_directory(run.dir)) {
    try {
      write_point_file(run, grid_.keys, scenario_path_);
    } catch (const std::exception& failure) {
      std::cerr << "tsunagi sweep: " << failure.what() << '\n';
    }
  }
  progress(run);
}

void Sweep::progress(const PointRun& run) const {
  std::ostringstream line;
  line << '[' << finished_ << '/' << runs_.size() << "] " << run.point->label;
  if (*run.exit_status == kExitOk) {
    line << " ok (" << format_duration(run.wall_s) << ')';
  } else {
    line << " FAILED (exit " << *run.exit_status << ", " << format_duration(run.wall_s) << ')';
    if (!run.reason.empty()) line << ": " << run.reason;
    if (fs::exists(run.dir / kStderrFileName)) {
      line << " [" << (run.dir / kStderrFileName).string() << ']';
    }
  }
  const std::size_t remaining = to_run_ - run_now_;
  if (remaining > 0 && !options_.slurm) {  // a Slurm array's points are read after it ended
    // Mean wall time of the points run so far, times the points left, spread over -j.
    const double mean_s = run_wall_s_ / static_cast<double>(run_now_);
    const double parallel = static_cast<double>(std::min<std::size_t>(options_.jobs, remaining));
    line << ", ETA " << format_duration(mean_s * static_cast<double>(remaining) / parallel);
  }
  std::cerr << line.str() << '\n';
}

std::vector<PointRun*> Sweep::pending_points() {
  std::vector<PointRun*> pending;
  for (PointRun& run : runs_) {
    if (run.exit_status) {
      ++finished_;
    } else {
      pending.push_back(&run);
    }
  }
  to_run_ = pending.size();
  return pending;
}

void Sweep::announce(const char* where) const {
  std::cerr << "tsunagi sweep: " << runs_.size() << " point" << (runs_.size() == 1 ? "" : "s");
  if (!grid_.keys.empty()) {
    std::cerr << " (";
    for (std::size_t k = 0; k < grid_.keys.size(); ++k) {
      std::cerr << (k == 0 ? "" : " x ") << grid_.keys[k];
    }
    std::cerr << ')';
  }
  std::cerr << ", " << finished_ << " done before, " << to_run_ << " to run, " << where << ", into "
            << out_.string() << '\n';
}

int Sweep::run_all() {
  const std::vector<PointRun*> pending = pending_points();
  announce(("-j " + std::to_string(options_.jobs)).c_str());

  const BlockedSignals signals;
  loop_start_ = Clock::now();
  std::size_t next = 0;
  for (;;) {
    while (running_.size() < options_.jobs && next < pending.size()) start(*pending[next++]);
    bool reaped = false;
    for (std::size_t i = 0; i < running_.size();) {
      if (const std::optional<int> status = try_reap(running_[i]->pid)) {
        PointRun& run = *running_[i];
        running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
        finish(run, *status);
        reaped = true;
      } else {
        ++i;
      }
    }
    if (running_.empty() && next >= pending.size()) return 0;
    // Also when children keep ending: a Ctrl-C is looked at every round.
    const int signal = signals.wait_for_signal(reaped || running_.empty() ? 0.0 : 1.0);
    if (signal == SIGINT || signal == SIGTERM || signal == SIGHUP) {
      const char* name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "SIGHUP";
      std::cerr << "tsunagi sweep: interrupted by " << name << "; stopping " << running_.size()
                << " running point" << (running_.size() == 1 ? "" : "s") << '\n';
      stop_children(signals);
      return signal;
    }
  }
}

// SIGTERM to every running child (its process group), SIGKILL to those still there after the
// grace period or at a second Ctrl-C; every child is reaped. Their points stay unfinished.
void Sweep::stop_children(const BlockedSignals& signals) {
  for (PointRun* run : running_) signal_child(run->pid, SIGTERM);
  const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                        std::chrono::duration<double>(kStopGraceS));
  bool killed = false;
  while (!running_.empty()) {
    for (std::size_t i = 0; i < running_.size();) {
      if (const std::optional<int> status = try_reap(running_[i]->pid)) {
        std::cerr << "tsunagi sweep: stopped " << running_[i]->point->label << " (pid "
                  << running_[i]->pid << ")\n";
        running_[i]->pid = 0;
        running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        ++i;
      }
    }
    if (running_.empty()) break;
    const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
    if (!killed && left <= 0) {
      for (PointRun* run : running_) signal_child(run->pid, SIGKILL);
      killed = true;
    }
    const int signal = signals.wait_for_signal(killed ? 0.1 : std::min(left, 0.5));
    if (!killed && (signal == SIGINT || signal == SIGTERM || signal == SIGHUP)) {
      for (PointRun* run : running_) signal_child(run->pid, SIGKILL);
      killed = true;
    }
  }
}

}  // namespace tsunagi::app::sweep
