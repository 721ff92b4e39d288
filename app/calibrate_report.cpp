// What `tsunagi calibrate` prints and writes (calibrate_report.hpp).
#include "calibrate_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace tsunagi::app {
namespace {

std::int64_t to_ns(double seconds) {
  return static_cast<std::int64_t>(std::llround(seconds * 1e9));
}

std::string fixed(double value, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, value);
  return text;
}

}  // namespace

CostsFile costs_of(const CalibrationFit& fit) {
  CostsFile costs;
  const std::int64_t overhead = to_ns(fit.overhead_s);
  costs.send_overhead_ns = overhead / 2;
  costs.receive_overhead_ns = overhead - overhead / 2;
  // g is both ends' copies per byte; each end copies at 2 / g.
  costs.copy_bandwidth = fit.copy_byte_s > 0 ? 2 / fit.copy_byte_s : 0;
  costs.bandwidth = 1 / fit.rate_factor;
  costs.latency_per_link_ns = to_ns(fit.link_latency_s);
  return costs;
}

void print_fit(std::ostream& out, const CalibrationFit& fit,
               const std::vector<LabelledPoint>& points, const CostsFile& costs) {
  out << "fit (one way: o + links x d + nominal latency + bytes x g + bytes x k / nominal rate; "
         "least squares on relative error)\n";
  out << "  o  host overhead per message, both ends   " << fixed(fit.overhead_s * 1e6, 2)
      << " us  -> send_overhead " << costs.send_overhead_ns << " ns, receive_overhead "
      << costs.receive_overhead_ns << " ns (a ping-pong cannot split them: halves)\n";
  out << "  d  added latency per link                 " << fixed(fit.link_latency_s * 1e6, 2)
      << " us  -> latency_per_link\n";
  out << "  g  host copies per byte, both ends        " << fixed(fit.copy_byte_s * 1e9, 4)
      << " ns  -> copy_bandwidth " << fixed(costs.copy_bandwidth / 1e6, 1) << " MB/s each end\n";
  out << "  k  nominal byte time multiplier           " << fixed(fit.rate_factor, 4)
      << "     -> bandwidth " << fixed(costs.bandwidth, 4) << "\n";
  for (const std::string& line : fit.held) out << "  held: " << line << "\n";
  out << "residuals\n  path              bytes    measured us    model us   residual\n";
  double worst = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const CalibrationPoint& p = points[i].point;
    char line[160];
    std::snprintf(line, sizeof line, "  %-14s %9llu %13.1f %11.1f %9.1f %%\n",
                  points[i].path.c_str(), static_cast<unsigned long long>(p.bytes),
                  p.one_way_s * 1e6, fit.model_s[i] * 1e6, fit.residuals[i] * 100);
    out << line;
    worst = std::max(worst, std::abs(fit.residuals[i]));
  }
  out << "  worst |residual| " << fixed(worst * 100, 1) << " %\n";
}

std::string costs_toml(const CostsFile& costs, const std::vector<std::string>& header) {
  std::ostringstream out;
  for (const std::string& line : header) out << "# " << line << "\n";
  out << "\n[protocol.costs]\n";
  out << "send_overhead = \"" << costs.send_overhead_ns << "ns\"\n";
  out << "receive_overhead = \"" << costs.receive_overhead_ns << "ns\"\n";
  if (costs.copy_bandwidth > 0) {
    out << "copy_bandwidth = \"" << std::llround(costs.copy_bandwidth) << "Bps\"\n";
  } else {
    out << "copy_bandwidth = \"0Bps\"  # free: the fit found no per-byte host cost\n";
  }
  out << "\n[network.factors]\n";
  out << "bandwidth = " << fixed(costs.bandwidth, 6) << "\n";
  out << "latency_per_link = \"" << costs.latency_per_link_ns << "ns\"\n";
  return out.str();
}

}  // namespace tsunagi::app
