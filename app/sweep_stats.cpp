// Statistics over seeds. See sweep_stats.hpp.
#include "sweep_stats.hpp"

#include <array>
#include <cmath>

namespace tsunagi::app::sweep {

namespace {

// t(0.975, df) for df = 1..30 (computed with mpmath's regularized incomplete beta at 30 digits).
constexpr std::array<double, 30> kT95 = {
    12.7062047361747,  4.302652729749464, 3.18244630528371,  2.776445105197794, 2.570581835636316,
    2.44691185114497,  2.364624251592785, 2.306004135204167, 2.262157162798206, 2.228138851986275,
    2.20098516009164,  2.178812829667229, 2.160368656462793, 2.144786687917804, 2.131449545559776,
    2.119905299221255, 2.109815577833317, 2.100922040241038, 2.09302405440831,  2.085963447265865,
    2.07961384472768,  2.073873067904026, 2.068657610419049, 2.063898561628026, 2.059538552753298,
    2.055529438642873, 2.051830516480286, 2.048407141795245, 2.045229642132704, 2.042272456301238};

constexpr double kZ975 = 1.9599639845400542;  // the normal quantile, the limit as df grows

}  // namespace

double t_quantile_95(std::size_t df) {
  if (df == 0) return NAN;
  if (df <= kT95.size()) return kT95[df - 1];
  // Abramowitz & Stegun 26.7.5: t = z + g1/v + g2/v^2 + g3/v^3 + g4/v^4.
  const double z = kZ975;
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;
  const double g1 = (z3 + z) / 4;
  const double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
  const double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
  const double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;
  const double v = static_cast<double>(df);
  return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v);
}

Stats describe(const std::vector<double>& values) {
  Stats stats;
  stats.n = values.size();
  if (values.empty()) return stats;
  // Deviations from the first value, so that equal values give exactly that value and sd 0
  // (a plain sum / n of 0.1, 0.1, 0.1 is 0.10000000000000002), and large offsets such as a
  // makespan in ns lose no digits.
  const double origin = values.front();
  double shift = 0;
  for (const double value : values) shift += value - origin;
  const double n = static_cast<double>(values.size());
  shift /= n;
  stats.mean = origin + shift;
  if (values.size() < 2) return stats;
  double squares = 0;
  for (const double value : values) squares += (value - origin - shift) * (value - origin - shift);
  stats.sd = std::sqrt(squares / (n - 1));
  const double half = t_quantile_95(values.size() - 1) * *stats.sd / std::sqrt(n);
  stats.ci95_low = *stats.mean - half;
  stats.ci95_high = *stats.mean + half;
  return stats;
}

}  // namespace tsunagi::app::sweep
