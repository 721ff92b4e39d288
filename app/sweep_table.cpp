// OUT/sweep.csv, OUT/summary.csv (the runs over seeds, sweep_summary.hpp) and the summary on
// stdout, from the points' result.json files (however they ran: here or as a Slurm array). See
// sweep_runner.hpp.
#include <iostream>
#include <sstream>

#include "exit_codes.hpp"
#include "sweep_results.hpp"
#include "sweep_runner.hpp"
#include "sweep_summary.hpp"
#include "tsunagi/runner/results/regular_file.hpp"

namespace tsunagi::app::sweep {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Where the seed sits among the swept keys (keys.size() when it is not swept).
std::size_t seed_index(const std::vector<std::string>& keys) {
  std::size_t i = 0;
  while (i < keys.size() && keys[i] != kSeedKey) ++i;
  return i;
}

template <typename T>
std::vector<T> without(const std::vector<T>& items, std::size_t index) {
  std::vector<T> rest = items;
  if (index < rest.size()) rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(index));
  return rest;
}

}  // namespace

void Sweep::write_csv() const {
  const std::vector<std::string>& columns =
      options_.columns.empty() ? kDefaultSweepColumns : options_.columns;
  std::vector<bool> column_seen(columns.size(), false);
  const std::size_t seed = seed_index(grid_.keys);
  std::vector<SummaryRun> summary_runs;
  std::ostringstream csv;
  for (const std::string& key : grid_.keys) csv << csv_field(key) << ',';
  csv << "ok";
  for (const std::string& column : columns) csv << ',' << csv_field(column);
  csv << '\n';
  for (const PointRun& run : runs_) {
    if (!run.exit_status) continue;  // interrupted or never started
    SummaryRun& summary_run = summary_runs.emplace_back();
    summary_run.point = without(run.point->values, seed);
    summary_run.ok = *run.exit_status == kExitOk;
    for (const std::string& value : run.point->values) csv << csv_field(value) << ',';
    csv << (summary_run.ok ? "true" : "false");
    const std::optional<json> result = read_complete_result(run.dir);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const json* value = result ? value_at(*result, columns[c]) : nullptr;
      if (value != nullptr && !value->is_null()) column_seen[c] = true;
      csv << ',' << csv_field(csv_text(value));
      summary_run.figures.push_back(figure_number(value));
    }
    csv << '\n';
  }
  runner::write_file_atomically((out_ / kCsvFileName).string(),
                                [&](std::ostream& out) { out << csv.str(); });
  runner::write_file_atomically((out_ / kSummaryFileName).string(), [&](std::ostream& out) {
    out << summary_csv(without(grid_.keys, seed), columns, summary_runs);
  });
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (!column_seen[c] && !summary_runs.empty()) {
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
  std::cout
      << "wall     "
      << format_duration(
             std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_start_).count())
      << ", -j " << options_.jobs << '\n';
  std::cout << "csv      " << (out_ / kCsvFileName).string() << '\n';
  std::cout << "summary  " << (out_ / kSummaryFileName).string() << '\n';
  if (interrupted_by != 0) {
    std::cout << "result   interrupted: the same command resumes the sweep\n";
    return 128 + interrupted_by;
  }
  std::cout << "result   " << (failed == 0 ? "ok" : "some points failed") << '\n';
  return failed == 0 ? kExitOk : kExitFailed;
}

}  // namespace tsunagi::app::sweep
