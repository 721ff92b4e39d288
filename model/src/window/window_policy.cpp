// Window sizing (window_policy.hpp): pure arithmetic on measured paths.
#include "tsunagi/model/window/window_policy.hpp"

#include <algorithm>
#include <cmath>

namespace tsunagi {

double probe_rate(std::uint64_t bytes, TimeNs elapsed, TimeNs rtt) {
  if (elapsed <= 0) return 0;
  // The first byte needs half an RTT to arrive; without it a short probe on a long path reads
  // far below the path's rate. At least half the time is kept, so a bad RTT cannot blow it up.
  const TimeNs sending = std::max(elapsed - rtt / 2, elapsed / 2);
  return static_cast<double>(bytes) / (static_cast<double>(sending) / 1e9);
}

std::uint64_t auto_window(const WindowConfig& config, const PathEstimate& path) {
  const double bdp = path.bytes_per_second * (static_cast<double>(path.rtt) / 1e9);
  const double wanted = std::ceil(config.headroom * bdp / 4096.0) * 4096.0;
  const double lo = static_cast<double>(config.min_bytes);
  const double hi = static_cast<double>(std::max(config.min_bytes, config.max_bytes));
  if (!std::isfinite(wanted)) return static_cast<std::uint64_t>(hi);
  return static_cast<std::uint64_t>(std::clamp(wanted, lo, hi));
}

std::optional<WindowChoice> choose_window(const WindowConfig& config,
                                          const std::optional<PathEstimate>& path) {
  switch (config.mode) {
    case WindowMode::Default:
      return std::nullopt;
    case WindowMode::Fixed:
      return WindowChoice{config.bytes, config.bytes};
    case WindowMode::Auto:
      if (!path) return std::nullopt;
      const std::uint64_t bytes = auto_window(config, *path);
      return WindowChoice{bytes, bytes};
  }
  return std::nullopt;
}

}  // namespace tsunagi
