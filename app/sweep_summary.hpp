// OUT/summary.csv: a sweep's runs averaged over seeds, one row per point of the other swept keys,
// with each figure's mean, standard deviation, count and 95 % interval; runs that did not end ok
// are counted, never averaged in (docs/cli.md, "tsunagi sweep").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tsunagi::app::sweep {

inline constexpr const char* kSummaryFileName = "summary.csv";
// The swept key whose values are repetitions of one point (`--seeds SPEC` = `--set seed=SPEC`).
inline constexpr const char* kSeedKey = "seed";

// One finished run as the summary sees it.
struct SummaryRun {
  std::vector<std::string> point;              // values of the summary's keys, in order
  bool ok = false;                             // exit status 0
  std::vector<std::optional<double>> figures;  // one per column: its number, if it is one
};

// A result.json value as a number: numbers as they are, true/false as 1/0 (a mean is then a
// fraction); nothing for strings, arrays, objects, null and absent values.
std::optional<double> figure_number(const nlohmann::json* value);

// summary.csv's text. Header: `keys`, runs, failed, then for each column C that holds a number in
// some run: C.mean, C.sd, C.n, C.ci95_low, C.ci95_high. One row per distinct point, in the order
// points first appear. `runs` counts the finished runs of the point, `failed` those not ok; the
// statistics use the ok runs that have the figure (C.n of them); cells without a value are empty.
std::string summary_csv(const std::vector<std::string>& keys,
                        const std::vector<std::string>& columns,
                        const std::vector<SummaryRun>& runs);

}  // namespace tsunagi::app::sweep
