// When a frame leaves one direction of a delay-line link (see delay_line.hpp). Pure: the event
// loop gives it the time a frame was read and its length, it returns the time to write it out.
//
// Without a rate the link is a fixed delay: release = read + delay. With a rate it is a serial
// link (docs/lmmc.md, "Fig. 9/10"): the frame is on the wire for its own serialisation time
// (bytes * 8 / rate) and cannot start before the frame ahead of it has left, then it travels
// the delay. A token bucket (tbf) cannot do this: after an idle gap it sends a whole bucket at
// once, so a message of up to one frame crossed without its serialisation time.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tsunagi::realnet {

class LinkClock {
 public:
  // delay_ns: propagation, each frame; rate_bits_per_s: 0 = no serialisation.
  LinkClock(std::int64_t delay_ns, std::int64_t rate_bits_per_s)
      : delay_ns_(delay_ns), rate_(rate_bits_per_s) {}

  // The frame's serialisation time, rounded up to the nanosecond (0 without a rate).
  std::int64_t wire_ns(std::size_t bytes) const {
    if (rate_ <= 0) return 0;
    const auto bits_ns = static_cast<std::int64_t>(bytes) * 8 * 1'000'000'000;
    return (bits_ns + rate_ - 1) / rate_;
  }

  // A frame of `bytes` read at `now_ns`: when it is to be written out. Frames leave in the
  // order they were admitted (the delay is the same for all, the wire is FIFO).
  std::int64_t admit(std::int64_t now_ns, std::size_t bytes) {
    const std::int64_t start = std::max(now_ns, wire_free_at_);
    wire_free_at_ = start + wire_ns(bytes);
    return wire_free_at_ + delay_ns_;
  }

  std::int64_t delay_ns() const { return delay_ns_; }
  std::int64_t rate_bits_per_s() const { return rate_; }

 private:
  std::int64_t delay_ns_ = 0;
  std::int64_t rate_ = 0;
  std::int64_t wire_free_at_ = 0;  // when the last frame admitted has left the wire
};

// How the delay line waits for its next release at `next_ns` (-1: nothing queued): a timer's
// wake-up comes late (docs/lmmc.md, "The delay line's own cost"), so it sets the timer spin_ns
// early and polls from there, while its polling budget lasts. With the budget spent it sleeps
// until the release itself: a timer set to a moment already past would fire at once, again and
// again, and spin without a budget.
struct Wait {
  bool poll = false;           // poll (epoll_wait without a timeout) rather than sleep
  std::int64_t timer_ns = -1;  // when not polling: the timer's time (-1: none, sleep until a frame)
};

inline Wait plan_wait(std::int64_t next_ns, std::int64_t now_ns, std::int64_t spin_ns,
                      bool may_poll) {
  if (next_ns < 0) return {};
  const bool near = next_ns - now_ns <= spin_ns;
  if (near && may_poll) return {true, -1};
  return {false, near ? next_ns : next_ns - spin_ns};
}

}  // namespace tsunagi::realnet
