// `tsunagi sweep SCENARIO --set KEY=SPEC ...`: every point of the grid is one `tsunagi run`
// child (this same binary, --quiet, its own directory under --out), at most -j at once; points
// finished before with the same parameters are not run again; OUT/sweep.csv tabulates them.
#include "sweep.hpp"

#include <sys/types.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "backends.hpp"
#include "exit_codes.hpp"
#include "sweep_process.hpp"
#include "sweep_spec.hpp"
#include "tsunagi/runner/output_files.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::app {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

namespace {

constexpr const char* kPointFileName = "sweep-point.json";  // the parameters of a finished point
constexpr const char* kCsvFileName = "sweep.csv";
constexpr const char* kLockFileName = "sweep.lock";
constexpr const char* kStdoutFileName = "stdout.txt";
constexpr const char* kStderrFileName = "stderr.txt";
constexpr double kStopGraceS = 5.0;  // after SIGTERM, before SIGKILL

int bad_input(const std::string& message) {
  std::cerr << "tsunagi sweep: " << message << '\n';
  return kExitBadInput;
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// "0.25 s", "4.2 s", "38 s", "3 min 05 s", "2 h 10 min".
std::string format_duration(double seconds) {
  char text[48];
  if (seconds < 1) {
    std::snprintf(text, sizeof text, "%.2f s", seconds);
  } else if (seconds < 10) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  } else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60);
    std::snprintf(text, sizeof text, "%ld h %02ld min", m / 60, m % 60);
  }
  return text;
}

std::optional<json> read_json_file(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    return json::parse(in);
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

// result.json is written under a temporary name and renamed, so a parsable object with its
// "ok" member is a finished one.
std::optional<json> read_complete_result(const fs::path& dir) {
  std::optional<json> result = read_json_file(dir / runner::kResultFileName);
  if (!result || !result->is_object() || !result->contains("ok")) return std::nullopt;
  return result;
}

// The value at a dotted path: object members (a member whose name has dots, such as
// backend_counts' "inference.rtt_probes", is found too) and array indices ("inference.groups.0").
const json* value_at(const json& value, std::string_view path) {
  if (path.empty()) return &value;
  if (value.is_object()) {
    // Longest member name first: "a.b.c" tries member "a.b.c", then "a.b" + ".c", then "a".
    for (std::size_t end = path.size(); end != std::string_view::npos && end > 0;
         end = end == 0 ? std::string_view::npos : path.rfind('.', end - 1)) {
      const auto member = value.find(std::string(path.substr(0, end)));
      if (member == value.end()) continue;
      const std::string_view rest = end == path.size() ? std::string_view() : path.substr(end + 1);
      if (const json* found = value_at(*member, rest)) return found;
    }
    return nullptr;
  }
  if (value.is_array()) {
    const std::string_view first = path.substr(0, path.find('.'));
    if (first.empty() || first.find_first_not_of("0123456789") != std::string_view::npos) {
      return nullptr;
    }
    const std::size_t index = std::stoul(std::string(first));
    if (index >= value.size()) return nullptr;
    const std::string_view rest =
        first.size() == path.size() ? std::string_view() : path.substr(first.size() + 1);
    return value_at(value[index], rest);
  }
  return nullptr;
}

std::string csv_text(const json* value) {
  if (value == nullptr || value->is_null()) return "";
  if (value->is_string()) return value->get<std::string>();
  return value->dump();
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

// The first line of a failed child's stderr that says why ("tsunagi run: ..."), else its first
// non-empty line.
std::string failure_reason(const fs::path& stderr_file) {
  std::ifstream in(stderr_file);
  std::string line;
  std::string first;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (first.empty()) first = line;
    if (line.rfind("tsunagi", 0) == 0) return line;
  }
  return first;
}

struct PointRun {
  const sweep::Point* point = nullptr;
  fs::path dir;
  json identity;                   // what makes two runs of this point the same run
  std::optional<int> exit_status;  // once finished (now or before)
  bool done_before = false;
  std::string reason;  // why it failed, for the progress line
  pid_t pid = 0;
  Clock::time_point start;
  double wall_s = 0;
};

bool same_identity(const json& stored, const json& identity) {
  for (const auto& [key, value] : identity.items()) {
    if (!stored.contains(key) || stored[key] != value) return false;
  }
  return true;
}

// A point is done when its directory holds the parameters file of this very point and a
// complete result.json (a failed run, exit 1, is done too unless --retry-failed).
bool done_before(PointRun& run, bool retry_failed) {
  const std::optional<json> stored = read_json_file(run.dir / kPointFileName);
  if (!stored || !stored->is_object() || !same_identity(*stored, run.identity)) return false;
  if (!stored->contains("exit_status") || !(*stored)["exit_status"].is_number_integer()) {
    return false;
  }
  if (!read_complete_result(run.dir)) return false;
  const int status = (*stored)["exit_status"].get<int>();
  if (retry_failed && status != kExitOk) return false;
  run.exit_status = status;
  run.done_before = true;
  return true;
}

void write_point_file(const PointRun& run, const std::vector<std::string>& keys,
                      const std::string& scenario_path) {
  json file = run.identity;
  file["scenario"] = scenario_path;  // for people: the file's contents are what is compared
  json values = json::object();
  for (std::size_t i = 0; i < keys.size(); ++i) values[keys[i]] = run.point->values[i];
  file["point"] = values;
  file["exit_status"] = *run.exit_status;
  file["wall_s"] = run.wall_s;
  const fs::path temporary = run.dir / (std::string(kPointFileName) + ".tmp");
  {
    std::ofstream out(temporary);
    out << file.dump(2) << '\n';
    if (!out) throw std::runtime_error(temporary.string() + ": cannot write");
  }
  fs::rename(temporary, run.dir / kPointFileName);
}

class Sweep {
 public:
  Sweep(const SweepOptions& options, const sweep::Grid& grid, fs::path out,
        std::string scenario_path, std::vector<PointRun> runs)
      : options_(options),
        grid_(grid),
        out_(std::move(out)),
        scenario_path_(std::move(scenario_path)),
        runs_(std::move(runs)) {}

  // Runs what is not done; returns the signal that interrupted it, or 0.
  int run_all();
  void write_csv() const;
  int print_summary(int interrupted_by) const;

 private:
  void start(PointRun& run);
  void finish(PointRun& run, int status);
  void progress(const PointRun& run) const;
  void stop_children(const sweep::BlockedSignals& signals);

  const SweepOptions& options_;
  const sweep::Grid& grid_;
  fs::path out_;
  std::string scenario_path_;
  std::vector<PointRun> runs_;
  std::vector<PointRun*> running_;
  std::size_t finished_ = 0;  // done before + finished now (the k of [k/N])
  std::size_t run_now_ = 0;   // finished now
  std::size_t to_run_ = 0;    // points this invocation runs
  double run_wall_s_ = 0;     // sum of the wall times of the points finished now
  Clock::time_point loop_start_;
};

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
  std::vector<std::string> argv = {
      sweep::self_executable(), "run",   options_.scenario, "--quiet", "--backend",
      options_.backend,         "--out", run.dir.string()};
  for (const std::string& override_text : run.point->overrides) {
    argv.push_back("--set");
    argv.push_back(override_text);
  }
  try {
    run.pid = sweep::spawn_child("/proc/self/exe", argv, run.dir / kStdoutFileName,
                                 run.dir / kStderrFileName);
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
  if (remaining > 0) {
    // Mean wall time of the points run so far, times the points left, spread over -j.
    const double mean_s = run_wall_s_ / static_cast<double>(run_now_);
    const double parallel = static_cast<double>(std::min<std::size_t>(options_.jobs, remaining));
    line << ", ETA " << format_duration(mean_s * static_cast<double>(remaining) / parallel);
  }
  std::cerr << line.str() << '\n';
}

int Sweep::run_all() {
  std::vector<PointRun*> pending;
  for (PointRun& run : runs_) {
    if (run.exit_status) {
      ++finished_;
    } else {
      pending.push_back(&run);
    }
  }
  to_run_ = pending.size();
  std::cerr << "tsunagi sweep: " << runs_.size() << " point" << (runs_.size() == 1 ? "" : "s");
  if (!grid_.keys.empty()) {
    std::cerr << " (";
    for (std::size_t k = 0; k < grid_.keys.size(); ++k) {
      std::cerr << (k == 0 ? "" : " x ") << grid_.keys[k];
    }
    std::cerr << ')';
  }
  std::cerr << ", " << finished_ << " done before, " << to_run_ << " to run, -j " << options_.jobs
            << ", into " << out_.string() << '\n';

  const sweep::BlockedSignals signals;
  loop_start_ = Clock::now();
  std::size_t next = 0;
  for (;;) {
    while (running_.size() < options_.jobs && next < pending.size()) start(*pending[next++]);
    bool reaped = false;
    for (std::size_t i = 0; i < running_.size();) {
      if (const std::optional<int> status = sweep::try_reap(running_[i]->pid)) {
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
void Sweep::stop_children(const sweep::BlockedSignals& signals) {
  for (PointRun* run : running_) sweep::signal_child(run->pid, SIGTERM);
  const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                        std::chrono::duration<double>(kStopGraceS));
  bool killed = false;
  while (!running_.empty()) {
    for (std::size_t i = 0; i < running_.size();) {
      if (const std::optional<int> status = sweep::try_reap(running_[i]->pid)) {
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
      for (PointRun* run : running_) sweep::signal_child(run->pid, SIGKILL);
      killed = true;
    }
    const int signal = signals.wait_for_signal(killed ? 0.1 : std::min(left, 0.5));
    if (!killed && (signal == SIGINT || signal == SIGTERM || signal == SIGHUP)) {
      for (PointRun* run : running_) sweep::signal_child(run->pid, SIGKILL);
      killed = true;
    }
  }
}

void Sweep::write_csv() const {
  const std::vector<std::string>& columns =
      options_.columns.empty() ? kDefaultSweepColumns : options_.columns;
  std::vector<bool> column_seen(columns.size(), false);
  std::size_t rows = 0;
  std::ostringstream csv;
  for (const std::string& key : grid_.keys) csv << csv_field(key) << ',';
  csv << "ok";
  for (const std::string& column : columns) csv << ',' << csv_field(column);
  csv << '\n';
  for (const PointRun& run : runs_) {
    if (!run.exit_status) continue;  // interrupted or never started
    ++rows;
    for (const std::string& value : run.point->values) csv << csv_field(value) << ',';
    csv << (*run.exit_status == kExitOk ? "true" : "false");
    const std::optional<json> result = read_complete_result(run.dir);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const json* value = result ? value_at(*result, columns[c]) : nullptr;
      if (value != nullptr && !value->is_null()) column_seen[c] = true;
      csv << ',' << csv_field(csv_text(value));
    }
    csv << '\n';
  }
  const fs::path file = out_ / kCsvFileName;
  const fs::path temporary = out_ / (std::string(kCsvFileName) + ".tmp");
  {
    std::ofstream out(temporary);
    out << csv.str();
    if (!out) throw std::runtime_error(temporary.string() + ": cannot write");
  }
  fs::rename(temporary, file);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (!column_seen[c] && rows > 0) {
      std::cerr << "tsunagi sweep: warning: column " << columns[c]
                << " is empty in every row (no such key in result.json? docs/result-schema.md)\n";
    }
  }
}

int Sweep::print_summary(int interrupted_by) const {
  std::size_t ok = 0;
  std::size_t failed = 0;
  std::size_t before = 0;
  std::vector<std::string> failures;
  for (const PointRun& run : runs_) {
    if (!run.exit_status) continue;
    before += run.done_before ? 1 : 0;
    if (*run.exit_status == kExitOk) {
      ++ok;
    } else {
      ++failed;
      failures.push_back(run.point->label + " (exit " + std::to_string(*run.exit_status) + ")");
    }
  }
  std::cout << "points   " << runs_.size() << ": " << ok << " ok, " << failed << " failed";
  if (interrupted_by != 0) std::cout << ", " << runs_.size() - ok - failed << " not run";
  std::cout << " (" << run_now_ << " run now, " << before << " done before)\n";
  for (std::size_t i = 0; i < failures.size() && i < 10; ++i) {
    std::cout << "failed   " << failures[i] << '\n';
  }
  if (failures.size() > 10) std::cout << "failed   ... " << failures.size() - 10 << " more\n";
  std::cout << "wall     " << format_duration(seconds_since(loop_start_)) << ", -j "
            << options_.jobs << '\n';
  std::cout << "csv      " << (out_ / kCsvFileName).string() << '\n';
  if (interrupted_by != 0) {
    std::cout << "result   interrupted: the same command resumes the sweep\n";
    return 128 + interrupted_by;
  }
  std::cout << "result   " << (failed == 0 ? "ok" : "some points failed") << '\n';
  return failed == 0 ? kExitOk : kExitFailed;
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
      "resumable); tabulate the results in OUT/sweep.csv");
  sweep->add_option("SCENARIO", options.scenario, "Scenario file (TOML)")->required();
  sweep
      ->add_option("--set", options.sets,
                   "Override a scenario key with one value, a range A..B[:STEP] or a list "
                   "a,b,c (repeatable; the grid is the product of every multi-valued key)")
      ->type_name("KEY=SPEC")
      ->allow_extra_args(false);
  sweep->add_option("--seeds", options.seeds, "Seeds to sweep: same as --set seed=SPEC")
      ->type_name("SPEC");
  sweep->add_option("--backend", options.backend, "Backend to run on")->capture_default_str();
  sweep->add_option("-j,--jobs", options.jobs, "Points run at once")
      ->capture_default_str()
      ->check(CLI::Range(1U, 1024U));
  sweep->add_option("--out", options.out,
                    "Output directory: one directory per point and sweep.csv "
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
    if (!sweep::lock_file(out / kLockFileName)) {
      return bad_input("another tsunagi sweep is running into " + out.string() + " (it holds " +
                       (out / kLockFileName).string() + ")");
    }
    scenario_path = fs::weakly_canonical(fs::absolute(options.scenario)).string();
    identity_base["scenario_fnv1a"] = sweep::fnv1a_hex(read_file_bytes(options.scenario));
    identity_base["backend"] = options.backend;
  } catch (const std::exception& error) {
    return bad_input(error.what());
  }

  std::vector<PointRun> runs;
  runs.reserve(grid.points.size());
  for (const sweep::Point& point : grid.points) {
    PointRun run;
    run.point = &point;
    run.dir = out / point.dir_name;
    run.identity = identity_base;
    run.identity["overrides"] = point.overrides;
    done_before(run, options.retry_failed);
    runs.push_back(std::move(run));
  }

  SweepOptions effective = options;
  effective.columns = columns;
  Sweep sweep(effective, grid, out, scenario_path, std::move(runs));
  const int interrupted_by = sweep.run_all();
  try {
    sweep.write_csv();
  } catch (const std::exception& error) {
    std::cerr << "tsunagi sweep: " << error.what() << '\n';
    return kExitFailed;
  }
  return sweep.print_summary(interrupted_by);
}

}  // namespace tsunagi::app
