// Statistics of a sweep point over its seeds: mean, standard deviation and the 95 % confidence
// interval of the mean (Student t), for OUT/summary.csv (docs/cli.md, "tsunagi sweep").
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace tsunagi::app::sweep {

// The two-sided 95 % quantile of Student's t with `df` >= 1 degrees of freedom (t such that
// P(|T| <= t) = 0.95): a table to df 30, the Cornish-Fisher expansion above (within 1e-6).
double t_quantile_95(std::size_t df);

struct Stats {
  std::size_t n = 0;
  std::optional<double> mean;  // none when n = 0
  std::optional<double> sd;    // sample standard deviation (n - 1); none when n < 2
  // mean -/+ t(n-1) * sd / sqrt(n); none when n < 2 (one seed says nothing of the spread)
  std::optional<double> ci95_low;
  std::optional<double> ci95_high;
};

Stats describe(const std::vector<double>& values);

}  // namespace tsunagi::app::sweep
