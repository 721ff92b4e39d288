// TCP windows as a decision of the core (issue 15, paper 004): which socket buffers a data
// connection gets under protocol.window, and, for "auto", how a measured path becomes a size.
#pragma once

#include <cstdint>
#include <optional>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

// What a node measured towards one peer: the minimum of its RTT probes, and the rate of a bulk
// transfer made with large buffers (bytes over its time less half an RTT, the first byte's way).
struct PathEstimate {
  TimeNs rtt = 0;
  double bytes_per_second = 0;
};

struct WindowChoice {
  std::uint64_t send = 0;  // 0 = the host stack's default
  std::uint64_t recv = 0;
  bool operator==(const WindowChoice&) const = default;
};

// The path's rate from a throughput probe: `bytes` arrived `elapsed` after the transfer began,
// of which half an RTT was the first byte's flight. Never less than bytes / elapsed.
double probe_rate(std::uint64_t bytes, TimeNs elapsed, TimeNs rtt);

// Auto: headroom x bandwidth x RTT, rounded up to 4 KiB, within [min_bytes, max_bytes].
std::uint64_t auto_window(const WindowConfig& config, const PathEstimate& path);

// The buffers of a data connection: nullopt for Default (the core leaves them alone); Fixed:
// `bytes`; Auto: from `path`, or nullopt when the peer was not measured.
std::optional<WindowChoice> choose_window(const WindowConfig& config,
                                          const std::optional<PathEstimate>& path);

}  // namespace tsunagi
