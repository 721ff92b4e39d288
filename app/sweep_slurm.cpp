// `tsunagi sweep --slurm`: the points this invocation would run, as one Slurm job array. Task i
// of OUT/sweep-array.sh runs point i's `tsunagi run` (the command a local sweep starts, with
// this same binary, which must be on a file system the nodes share, as OUT must be) and leaves
// its exit status in the point's directory. `sbatch --wait` is waited for; then every point
// that left an exit status is finished exactly as a local child is (sweep-point.json,
// progress line), and sweep.csv is written by the same code. Ctrl-C cancels the job
// (scancel); points that did not finish stay unfinished, and the same command resumes them.
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include "exit_codes.hpp"
#include "sweep_results.hpp"
#include "sweep_runner.hpp"
#include "tsunagi/realnet/sbatch_lines.hpp"
#include "tsunagi/runner/results/output_files.hpp"
#include "tsunagi/runner/results/regular_file.hpp"

namespace tsunagi::app::sweep {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kArrayScriptName = "sweep-array.sh";
constexpr const char* kExitStatusFileName = "exit_status";

// Single quotes for bash, whatever the text holds.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string array_script(const SweepOptions& options, const fs::path& out,
                         const std::vector<PointRun*>& points) {
  realnet::SbatchLines lines{
      {"job-name", "tsunagi-sweep-" + fs::absolute(out).filename().string()},
      {"array", "0-" + std::to_string(points.size() - 1) +
                    (options.jobs_option != nullptr && options.jobs_option->count() > 0
                         ? "%" + std::to_string(options.jobs)
                         : "")},
      {"ntasks", "1"},
      {"output", (fs::absolute(out) / "slurm" / "%A_%a.log").string()}};
  realnet::apply_sbatch_options(lines, options.sbatch);
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << realnet::sbatch_header(lines) << "# tsunagi sweep " << options.scenario
    << " --slurm: array task i runs point i (below);\n"
    << "# the exit status goes to the point's directory; `tsunagi sweep` tabulates them.\n"
    << "set -u\ncase \"${SLURM_ARRAY_TASK_ID:?not an array task}\" in\n";
  for (std::size_t i = 0; i < points.size(); ++i) {
    const PointRun& run = *points[i];
    s << "  " << i << ")  # " << run.point->label << "\n    dir=" << quoted(fs::absolute(run.dir))
      << "\n    cmd=(";
    const auto argv = point_command(options, run, self_executable());
    for (std::size_t a = 0; a < argv.size(); ++a) s << (a == 0 ? "" : " ") << quoted(argv[a]);
    s << ") ;;\n";
  }
  s << "  *) echo \"tsunagi sweep: no point $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n"
    << "status=0\n\"${cmd[@]}\" > \"$dir/" << kStdoutFileName << "\" 2> \"$dir/" << kStderrFileName
    << "\" || status=$?\n"
    << "echo \"$status\" > \"$dir/" << kExitStatusFileName << ".tmp\" && mv \"$dir/"
    << kExitStatusFileName << ".tmp\" \"$dir/" << kExitStatusFileName << "\"\nexit \"$status\"\n";
  return s.str();
}

std::string first_line(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  return line;
}

// Runs a Slurm command to its end (scancel); its status, or -1 if it could not start.
int run_to_end(const std::vector<std::string>& argv, const fs::path& log) {
  try {
    const pid_t pid = spawn_child("/usr/bin/env", argv, log, log);
    for (;;) {
      if (const std::optional<int> status = try_reap(pid)) return *status;
      usleep(50'000);
    }
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

int Sweep::run_on_slurm() {
  const std::vector<PointRun*> pending = pending_points();
  announce("one Slurm job array");
  loop_start_ = Clock::now();
  if (pending.empty()) return 0;
  for (PointRun* run : pending) {  // nothing of an earlier run may pass for this one
    std::error_code error;
    fs::create_directories(run->dir, error);
    for (const char* name : {kPointFileName, runner::kResultFileName, kExitStatusFileName})
      fs::remove(run->dir / name, error);
  }
  fs::create_directories(out_ / "slurm");
  const fs::path script = out_ / kArrayScriptName;
  runner::write_file_atomically(
      script.string(), [&](std::ostream& file) { file << array_script(options_, out_, pending); });
  const fs::path submitted = out_ / "slurm" / "sbatch.out";
  const fs::path errors = out_ / "slurm" / "sbatch.err";
  const BlockedSignals signals;
  const pid_t sbatch =
      spawn_child("/usr/bin/env", {"env", "sbatch", "--parsable", "--wait", script.string()},
                  submitted, errors);
  int interrupted_by = 0;
  std::optional<int> status;
  bool told = false;
  while (!(status = try_reap(sbatch))) {
    if (!told && !first_line(submitted).empty()) {
      std::cerr << "tsunagi sweep: submitted job array " << first_line(submitted) << " ("
                << pending.size() << " tasks; " << script.string() << ")\n";
      told = true;
    }
    const int signal = signals.wait_for_signal(0.5);
    if (interrupted_by == 0 && (signal == SIGINT || signal == SIGTERM || signal == SIGHUP)) {
      interrupted_by = signal;
      const std::string job = first_line(submitted);
      std::cerr << "tsunagi sweep: interrupted; cancelling job " << job << '\n';
      if (!job.empty()) run_to_end({"env", "scancel", job}, out_ / "slurm" / "scancel.log");
      signal_child(sbatch, SIGTERM);
    }
  }
  if (*status != 0 && interrupted_by == 0)
    std::cerr << "tsunagi sweep: sbatch exited " << *status << ": " << first_line(errors) << " ["
              << errors.string() << "]\n";
  for (PointRun* run : pending) {
    const std::string text = first_line(run->dir / kExitStatusFileName);
    if (text.empty()) continue;  // not run (cancelled, failed to start): stays unfinished
    // Wall time as the point's run measured it: no launcher here saw it start.
    const std::optional<nlohmann::json> result = read_complete_result(run->dir);
    const double wall_s = result ? result->value("wall_s", 0.0) : 0.0;
    run->start = Clock::now() -
                 std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wall_s));
    int exit_status = kExitFailed;
    try {
      exit_status = std::stoi(text);
    } catch (const std::exception&) {
      run->reason = "unreadable " + (run->dir / kExitStatusFileName).string();
    }
    finish(*run, exit_status);
  }
  return interrupted_by;
}

}  // namespace tsunagi::app::sweep
