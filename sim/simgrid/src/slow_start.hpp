// TCP slow start for the flow model (`simgrid.slow_start`, docs/simgrid.md "Slow start").
// SimGrid's flows run at their max-min share from the first byte; a kernel's TCP connection
// starts with a window of ten segments and doubles it every round trip while the window is full,
// so a fresh connection's first large messages wait for ACKs. ns-3 and realnet pay that for
// real; with this the SimGrid adapter pays it too: each stream message is told how many round
// trips of waiting its connection's window costs it, and the window grows as Linux grows it
// (RFC 5681 slow start without loss: the window grows by what was acknowledged while the
// connection was window-limited, Linux's rule). No loss, no restart after idle (ns-3 has
// neither).
// Pure: the adapter keeps one window per connection and direction.
#pragma once

#include <algorithm>
#include <cstdint>

#include "tsunagi/model/types.hpp"

namespace tsunagi::sim::simgrid {

// Linux's initial window: 10 segments of 1,448 bytes (RFC 6928, a 1,500-byte MTU with
// timestamps).
inline constexpr std::uint64_t kInitialWindowBytes = 10 * 1448;
// Past this the window no longer matters (a window is never asked to carry more).
inline constexpr std::uint64_t kWindowCeilingBytes = std::uint64_t{1} << 40;

struct SlowStartCost {
  TimeNs waiting = 0;        // round trips spent waiting for ACKs, in ns
  std::uint64_t window = 0;  // the connection's window after the message
};

// A message of `bytes` on a connection whose window is `window`, on a route with round trip
// `rtt` (ns, no payload) and bottleneck `rate` (bytes/s). Every full round before the last
// waits what is left of the round trip once its window is on the wire: a window of at least the
// bandwidth-delay product waits nothing, so a link-filling connection pays nothing more.
inline SlowStartCost slow_start_cost(std::uint64_t window, std::uint64_t bytes, TimeNs rtt,
                                     double rate) {
  SlowStartCost cost{0, std::max<std::uint64_t>(window, 1)};
  std::uint64_t left = bytes;
  const bool limited = left > cost.window;
  while (left > cost.window) {
    const double on_wire_ns = rate > 0 ? static_cast<double>(cost.window) / rate * 1e9 : 0.0;
    const double rtt_ns = static_cast<double>(rtt);
    const TimeNs round_wait = rtt_ns > on_wire_ns ? static_cast<TimeNs>(rtt_ns - on_wire_ns) : 0;
    // At the ceiling the window stops doubling: its remaining full rounds all at once.
    const std::uint64_t rounds = cost.window == kWindowCeilingBytes ? (left - 1) / cost.window : 1;
    left -= rounds * cost.window;
    cost.waiting += static_cast<TimeNs>(rounds) * round_wait;
    cost.window = std::min(cost.window * 2, kWindowCeilingBytes);
  }
  // The last round's ACKs grow the window too when the message was window-limited (the full
  // rounds before it were still in flight, so Linux counts the connection as window-limited) or
  // when it used at least half of the window (Linux's test in slow start); otherwise a message
  // that fits adds nothing.
  if (limited || left * 2 >= cost.window)
    cost.window = std::min(cost.window + left, kWindowCeilingBytes);
  return cost;
}

// The rate cap that makes an uncontended flow of `bytes` at `rate` take `waiting` longer:
// bytes / (bytes / rate + waiting). 0 (no cap) when there is nothing to wait.
inline double slow_start_rate(std::uint64_t bytes, double rate, TimeNs waiting) {
  if (waiting <= 0 || bytes == 0 || rate <= 0) return 0;
  const double seconds = static_cast<double>(bytes) / rate + static_cast<double>(waiting) / 1e9;
  return static_cast<double>(bytes) / seconds;
}

}  // namespace tsunagi::sim::simgrid
