// Measuring one peer's path with pairs of probes made with the same window (path_meter.hpp).
#include "tsunagi/model/window/path_meter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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
      first_bytes_(std::max<std::uint64_t>(config.probe_bytes, 1)) {}

// The smaller probe of the current pair: at least the scout's size and kSteadyWindows windows.
std::uint64_t PathMeter::pair_bytes() const {
  const auto steady =
      static_cast<std::uint64_t>(std::ceil(kSteadyWindows * static_cast<double>(window_)));
  return std::max(first_bytes_, steady) * size_step_;
}

std::uint64_t PathMeter::next_bytes() const {
  if (done_) return 0;
  if (window_ == 0) return first_bytes_;
  return smaller_ ? 2 * pair_bytes() : pair_bytes();
}

std::uint64_t PathMeter::next_window() const {
  return window_ == 0 ? max_window_ : window_;
}

// `bdps` bandwidth-delay products of `rate`, rounded up to 4 KiB, within the window limits.
std::uint64_t PathMeter::window_for(double rate, double bdps) const {
  const double bdp = rate * (static_cast<double>(rtt_) / 1e9);
  const double wanted = std::ceil(bdps * bdp / 4096.0) * 4096.0;
  if (!std::isfinite(wanted)) return max_window_;
  return static_cast<std::uint64_t>(
      std::clamp(wanted, static_cast<double>(min_window_), static_cast<double>(max_window_)));
}

void PathMeter::measured(std::uint64_t bytes, TimeNs elapsed) {
  if (done_) return;
  const ProbeSample latest{bytes, elapsed, next_window()};
  samples_.push_back(latest);
  // A probe's own average is a floor for the path's rate: slow start only slows it down.
  best_rate_ = std::max(best_rate_, probe_rate(bytes, elapsed, rtt_));
  if (window_ == 0) {  // the scout: the first pair's window from its floor
    window_ = window_for(best_rate_, kFirstWindowBdps);
    return;
  }
  if (!smaller_) {
    smaller_ = latest;
    return;
  }
  const ProbeSample smaller = *smaller_;
  smaller_.reset();
  pair_measured(smaller, latest);
}

void PathMeter::pair_measured(const ProbeSample& smaller, const ProbeSample& larger) {
  const std::optional<double> rate = difference_rate(smaller, larger);
  if (!rate) {  // too short to tell (noise on a short path): the same window, longer probes
    const std::uint64_t cap = std::max(4 * first_bytes_, 6 * max_window_);
    if (4 * pair_bytes() > cap)
      done_ = true;
    else
      size_step_ *= 2;
    return;
  }
  // TCP moves at most a window per round trip: a higher difference means the smaller probe
  // was slowed by something else (another node's transfer), not that the path is faster.
  const double rtt_s = static_cast<double>(rtt_) / 1e9;
  const double ceiling =
      rtt_s > 0 ? static_cast<double>(window_) / rtt_s : std::numeric_limits<double>::infinity();
  const double reading = std::min(*rate, ceiling);
  if (reading < kConsistent * best_pair_rate_ && retries_ < kRetries) {
    ++retries_;  // slower with a larger window: an overlap; the same pair again
    return;
  }
  retries_ = 0;
  best_pair_rate_ = std::max(best_pair_rate_, reading);
  best_rate_ = std::max(best_rate_, reading);
  const bool window_limited = reading >= kWindowLimited * ceiling;
  if (!window_limited || window_ >= max_window_) {
    done_ = true;
    return;
  }
  window_ = std::min(max_window_, 2 * window_);
}

void PathMeter::failed() {
  done_ = true;
}

std::optional<PathEstimate> PathMeter::estimate() const {
  if (samples_.empty()) return std::nullopt;
  return PathEstimate{rtt_, best_rate_};
}

}  // namespace tsunagi
