// The fit behind `tsunagi calibrate` (docs/calibration.md): one-way ping-pong times against a
// LogGP-like model, by least squares. Pure (no I/O, no clock), so tests feed it synthetic points.
//
// The model of one message of n bytes over a path of h links (h = 0: loopback):
//
//   one_way = o + h * d + L + n * g + n * k / B
//
// L and B are the path's nominal figures (summed scaled latency, bottleneck rate); the fit
// finds o (per-message host overhead, both ends), d (each link's own added latency), g (per-byte
// host copies, both ends) and k (1 / the share of the nominal rate a transfer gets).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tsunagi::app {

struct CalibrationPoint {
  std::uint64_t bytes = 0;  // message size
  double one_way_s = 0;     // measured: half a round trip
  int links = 0;            // links of the path; 0 = processes of one host over loopback
  double latency_s = 0;     // the path's nominal one-way latency (already scaled)
  double byte_time_s = 0;   // 1 / the path's nominal bottleneck rate; 0 on loopback
};

struct CalibrationFit {
  double overhead_s = 0;          // o: host overhead per message, sender and receiver together
  double link_latency_s = 0;      // d: added to each link's latency
  double copy_byte_s = 0;         // g: host copies per byte, sender and receiver together
  double rate_factor = 1;         // k: nominal byte time x k; the bandwidth share is 1 / k
  std::vector<double> model_s;    // the fitted one-way time of each point
  std::vector<double> residuals;  // per point: (model - measured) / measured
  std::vector<std::string> held;  // what the points could not determine, held fixed, and why
};

// Weighted least squares on relative error (a 4 MiB point must not drown the 16 B ones).
// A parameter the points cannot separate is held (said in `held`): no point with links > 0
// holds d = 0 and k = 1; one link count only holds d = 0; no loopback point and one nominal
// rate holds g = 0. A fitted negative o, d or g, or a k below 1 (a share above 1), is clamped
// and said. Throws std::invalid_argument when there are fewer points than free parameters or
// the points leave the system singular.
CalibrationFit fit_calibration(const std::vector<CalibrationPoint>& points);

// Solves the least-squares problem min |W (X b - y)| for b: the normal equations on columns
// scaled to unit size, by Gaussian elimination with partial pivoting. Throws
// std::invalid_argument when X has fewer rows than columns or its columns are dependent.
std::vector<double> weighted_least_squares(const std::vector<std::vector<double>>& x,
                                           const std::vector<double>& y,
                                           const std::vector<double>& weights);

}  // namespace tsunagi::app
