// The least-squares fit of `tsunagi calibrate` (calibrate_fit.hpp, docs/calibration.md).
#include "calibrate_fit.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace tsunagi::app {
namespace {

enum Param { kOverhead, kLink, kCopy, kRate, kParams };

// Which parameters the points can determine; the others are held, with the reason.
std::vector<bool> free_params(const std::vector<CalibrationPoint>& points,
                              std::vector<std::string>& held) {
  std::set<int> link_counts;
  std::set<double> rates;
  bool loopback = false;
  for (const CalibrationPoint& p : points) {
    link_counts.insert(p.links);
    if (p.byte_time_s > 0) rates.insert(p.byte_time_s);
    loopback = loopback || p.byte_time_s == 0;
  }
  std::vector<bool> free(kParams, true);
  if (rates.empty()) {
    free[kLink] = free[kRate] = false;
    held.push_back("no path with links: latency_per_link = 0 and bandwidth = 1 held");
  } else if (link_counts.size() < 2) {
    free[kLink] = false;
    held.push_back("one path length only: latency_per_link = 0 held, its cost is in the overhead");
  }
  if (!loopback && rates.size() < 2) {
    free[kCopy] = false;
    held.push_back(
        "no loopback path and one nominal rate: copy cost 0 held, per-byte cost is "
        "the network's");
  }
  return free;
}

double column(Param param, const CalibrationPoint& p) {
  const auto n = static_cast<double>(p.bytes);
  switch (param) {
    case kOverhead:
      return 1;
    case kLink:
      return p.links;
    case kCopy:
      return n;
    default:
      return n * p.byte_time_s;
  }
}

// A fitted value below what the model allows is clamped, and said.
void clamp(double& value, double lowest, const char* name, std::vector<std::string>& held) {
  if (value >= lowest) return;
  held.push_back(std::string(name) + " fitted below its bound (" + std::to_string(value) +
                 "), clamped to " + std::to_string(lowest));
  value = lowest;
}

}  // namespace

std::vector<double> weighted_least_squares(const std::vector<std::vector<double>>& x,
                                           const std::vector<double>& y,
                                           const std::vector<double>& weights) {
  const std::size_t cols = x.empty() ? 0 : x[0].size();
  if (cols == 0 || x.size() < cols) {
    throw std::invalid_argument("too few points: " + std::to_string(x.size()) + " for " +
                                std::to_string(cols) + " parameters");
  }
  // Columns scaled to unit largest magnitude: bytes (1e6) beside counts (1) would otherwise
  // make the pivot test meaningless.
  std::vector<double> scale(cols, 0);
  for (const auto& row : x)
    for (std::size_t j = 0; j < cols; ++j) scale[j] = std::max(scale[j], std::abs(row[j]));
  for (std::size_t j = 0; j < cols; ++j)
    if (scale[j] == 0) throw std::invalid_argument("a parameter's column is all zero");
  // Normal equations A b = c, A = X'W²X, c = X'W²y, augmented into one matrix.
  std::vector<std::vector<double>> a(cols, std::vector<double>(cols + 1, 0));
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double w2 = weights[i] * weights[i];
    for (std::size_t r = 0; r < cols; ++r) {
      const double xr = x[i][r] / scale[r];
      for (std::size_t c = 0; c < cols; ++c) a[r][c] += w2 * xr * x[i][c] / scale[c];
      a[r][cols] += w2 * xr * y[i];
    }
  }
  double largest = 0;
  for (std::size_t r = 0; r < cols; ++r) largest = std::max(largest, std::abs(a[r][r]));
  for (std::size_t k = 0; k < cols; ++k) {
    std::size_t pivot = k;
    for (std::size_t r = k + 1; r < cols; ++r)
      if (std::abs(a[r][k]) > std::abs(a[pivot][k])) pivot = r;
    if (std::abs(a[pivot][k]) <= 1e-10 * largest)
      throw std::invalid_argument("the points cannot separate the parameters (singular fit)");
    std::swap(a[k], a[pivot]);
    for (std::size_t r = 0; r < cols; ++r) {
      if (r == k) continue;
      const double f = a[r][k] / a[k][k];
      for (std::size_t c = k; c <= cols; ++c) a[r][c] -= f * a[k][c];
    }
  }
  std::vector<double> b(cols);
  for (std::size_t k = 0; k < cols; ++k) b[k] = a[k][cols] / a[k][k] / scale[k];
  return b;
}

CalibrationFit fit_calibration(const std::vector<CalibrationPoint>& points) {
  CalibrationFit fit;
  const std::vector<bool> free = free_params(points, fit.held);
  std::vector<Param> params;
  for (int p = 0; p < kParams; ++p)
    if (free[static_cast<std::size_t>(p)]) params.push_back(static_cast<Param>(p));
  std::vector<std::vector<double>> x;
  std::vector<double> y, w;
  for (const CalibrationPoint& p : points) {
    if (!(p.one_way_s > 0)) throw std::invalid_argument("a measured time is not positive");
    std::vector<double> row;
    for (Param param : params) row.push_back(column(param, p));
    x.push_back(row);
    // Held parameters at their held values: k = 1 moves the nominal transfer to the left side.
    y.push_back(p.one_way_s - p.latency_s - (free[kRate] ? 0 : column(kRate, p)));
    w.push_back(1 / p.one_way_s);
  }
  const std::vector<double> b = weighted_least_squares(x, y, w);
  double value[kParams] = {0, 0, 0, 1};
  for (std::size_t i = 0; i < params.size(); ++i) value[params[i]] = b[i];
  clamp(value[kOverhead], 0, "overhead", fit.held);
  clamp(value[kLink], 0, "latency_per_link", fit.held);
  clamp(value[kCopy], 0, "copy cost", fit.held);
  clamp(value[kRate], 1, "rate factor (a bandwidth share above 1)", fit.held);
  fit.overhead_s = value[kOverhead];
  fit.link_latency_s = value[kLink];
  fit.copy_byte_s = value[kCopy];
  fit.rate_factor = value[kRate];
  for (const CalibrationPoint& p : points) {
    double model = p.latency_s;
    for (int q = 0; q < kParams; ++q) model += value[q] * column(static_cast<Param>(q), p);
    fit.model_s.push_back(model);
    fit.residuals.push_back((model - p.one_way_s) / p.one_way_s);
  }
  return fit;
}

}  // namespace tsunagi::app
