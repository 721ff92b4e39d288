// The summary over seeds. See sweep_summary.hpp.
#include "sweep_summary.hpp"

#include <map>
#include <sstream>

#include "sweep_range.hpp"
#include "sweep_results.hpp"
#include "sweep_stats.hpp"

namespace tsunagi::app::sweep {

namespace {

constexpr const char* kStatNames[] = {"mean", "sd", "n", "ci95_low", "ci95_high"};

std::string cell(const std::optional<double>& value) {
  return value ? format_decimal(*value) : "";
}

// Indices of the runs of each distinct point, the points in order of first appearance.
std::vector<std::vector<std::size_t>> group_by_point(const std::vector<SummaryRun>& runs) {
  std::vector<std::vector<std::size_t>> groups;
  std::map<std::vector<std::string>, std::size_t> group_of;  // a grid has up to 100,000 points
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto [where, added] = group_of.emplace(runs[r].point, groups.size());
    if (added) groups.emplace_back();
    groups[where->second].push_back(r);
  }
  return groups;
}

bool has_number(const std::vector<SummaryRun>& runs, std::size_t column) {
  for (const SummaryRun& run : runs) {
    if (run.figures[column]) return true;
  }
  return false;
}

void write_stats(std::ostream& csv, const Stats& stats) {
  csv << ',' << cell(stats.mean) << ',' << cell(stats.sd) << ',' << stats.n << ','
      << cell(stats.ci95_low) << ',' << cell(stats.ci95_high);
}

}  // namespace

std::optional<double> figure_number(const nlohmann::json* value) {
  if (value == nullptr) return std::nullopt;
  if (value->is_boolean()) return value->get<bool>() ? 1.0 : 0.0;
  if (value->is_number()) return value->get<double>();
  return std::nullopt;
}

std::string summary_csv(const std::vector<std::string>& keys,
                        const std::vector<std::string>& columns,
                        const std::vector<SummaryRun>& runs) {
  std::vector<std::size_t> numeric;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (has_number(runs, c)) numeric.push_back(c);
  }
  std::ostringstream csv;
  for (const std::string& key : keys) csv << csv_field(key) << ',';
  csv << "runs,failed";
  for (const std::size_t c : numeric) {
    for (const char* stat : kStatNames) csv << ',' << csv_field(columns[c] + '.' + stat);
  }
  csv << '\n';
  for (const std::vector<std::size_t>& group : group_by_point(runs)) {
    std::size_t failed = 0;
    for (const std::size_t r : group) failed += runs[r].ok ? 0 : 1;
    for (const std::string& value : runs[group.front()].point) csv << csv_field(value) << ',';
    csv << group.size() << ',' << failed;
    for (const std::size_t c : numeric) {
      std::vector<double> values;
      for (const std::size_t r : group) {
        if (runs[r].ok && runs[r].figures[c]) values.push_back(*runs[r].figures[c]);
      }
      write_stats(csv, describe(values));
    }
    csv << '\n';
  }
  return csv.str();
}

}  // namespace tsunagi::app::sweep
