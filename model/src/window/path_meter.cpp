// Measuring one peer's path with probes of growing sizes (path_meter.hpp).
#include "tsunagi/model/window/path_meter.hpp"

#include <algorithm>
#include <cmath>

namespace tsunagi {

std::optional<double> difference_rate(const ProbeSample& smaller, const ProbeSample& larger) {
  if (larger.bytes <= smaller.bytes || larger.elapsed <= smaller.elapsed) return std::nullopt;
  const double bytes = static_cast<double>(larger.bytes - smaller.bytes);
  return bytes / (static_cast<double>(larger.elapsed - smaller.elapsed) / 1e9);
}

PathMeter::PathMeter(const WindowConfig& config, TimeNs rtt)
    : rtt_(rtt),
      min_window_(config.min_bytes),
      max_window_(std::max(config.min_bytes, config.max_bytes)),
      first_bytes_(std::max<std::uint64_t>(config.probe_bytes, 1)),
      cap_bytes_(std::max(2 * first_bytes_, 2 * config.max_bytes)) {}

std::uint64_t PathMeter::next_bytes() const {
  if (done_) return 0;
  return samples_.empty() ? first_bytes_ : 2 * samples_.back().bytes;
}

std::uint64_t PathMeter::next_window() const {
  if (samples_.empty()) return max_window_;
  const double bdp = best_rate_ * (static_cast<double>(rtt_) / 1e9);
  const double wanted = std::ceil(kWindowGrowth * bdp / 4096.0) * 4096.0;
  if (!std::isfinite(wanted)) return max_window_;
  return static_cast<std::uint64_t>(
      std::clamp(wanted, static_cast<double>(min_window_), static_cast<double>(max_window_)));
}

void PathMeter::measured(std::uint64_t bytes, TimeNs elapsed) {
  if (done_) return;
  const ProbeSample latest{bytes, elapsed};
  // A probe's own average is a floor for the path's rate: slow start only slows it down.
  best_rate_ = std::max(best_rate_, probe_rate(bytes, elapsed, rtt_));
  decide_after(latest);
  samples_.push_back(latest);
  if (!done_ && next_bytes() > cap_bytes_) done_ = true;
}

// Whether the pair (previous, latest) showed the path's steady rate. Probes that overlap
// someone else's transfer read low, so the highest rate seen is kept rather than the last.
void PathMeter::decide_after(const ProbeSample& latest) {
  if (samples_.empty()) return;
  const ProbeSample& previous = samples_.back();
  const std::optional<double> rate = difference_rate(previous, latest);
  if (!rate) return;  // too short to tell: a larger probe follows
  best_rate_ = std::max(best_rate_, *rate);
  const double bdp = best_rate_ * (static_cast<double>(rtt_) / 1e9);
  const bool steady = static_cast<double>(previous.bytes) >= kSteadyBdps * bdp;
  const bool flat = last_difference_ && *rate < kStillGrowing * *last_difference_;
  last_difference_ = rate;
  if (steady || flat) done_ = true;
}

void PathMeter::failed() {
  done_ = true;
}

std::optional<PathEstimate> PathMeter::estimate() const {
  if (samples_.empty()) return std::nullopt;
  return PathEstimate{rtt_, best_rate_};
}

}  // namespace tsunagi
