// What `tsunagi calibrate` prints and writes (docs/calibration.md): the fit with its residuals,
// and the costs file that `tsunagi run --costs FILE` overlays on a scenario.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "calibrate_fit.hpp"

namespace tsunagi::app {

// One measured point with where it came from, for the residual table.
struct LabelledPoint {
  std::string path;  // "pair loopback", "pair netns", ...
  CalibrationPoint point;
};

// The values of the costs file. A ping-pong cannot tell the sender's overhead from the
// receiver's (every round trip pays both twice), so the fitted o is split in halves.
struct CostsFile {
  std::int64_t send_overhead_ns = 0;
  std::int64_t receive_overhead_ns = 0;
  double copy_bandwidth = 0;  // bytes/s at each end; 0 = free
  double bandwidth = 1;       // [network.factors]
  std::int64_t latency_per_link_ns = 0;
};

CostsFile costs_of(const CalibrationFit& fit);

// The fit, what was held and the per-point residuals, for people.
void print_fit(std::ostream& out, const CalibrationFit& fit,
               const std::vector<LabelledPoint>& points, const CostsFile& costs);

// The TOML text of the costs file; `header` lines become comments at its top.
std::string costs_toml(const CostsFile& costs, const std::vector<std::string>& header);

}  // namespace tsunagi::app
