// One process's timers, all in one queue (issue 31): the core's (ArmTimerCmd), the deadlines of
// its RTT echoes, and its world's own (SimGrid's SYN retransmissions, a [[faults]] kill, an
// echo read off the route). They are due in deadline order; timers due at the same instant fire
// in the order they were armed, whoever armed them. The queue lives in the shared driver
// (DrivenProcess, process_driver.hpp); a backend only wakes the driver at the earliest deadline
// (docs/backend-contract.md, "Timers").
//
// C++17-clean: the ns-3 backend includes it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi::runner {

enum class TimerOwner : std::uint8_t {
  Core,          // TimerFired{id} for the core
  EchoDeadline,  // id: the echo, aux: its number (DrivenProcess::probe_rtt)
  World,         // the adapter's own: kind, id and aux are its to read
};

struct DueTimer {
  TimeNs at = 0;
  TimerOwner owner = TimerOwner::Core;
  std::uint32_t kind = 0;
  std::uint64_t id = 0;
  std::uint64_t aux = 0;
};

class TimerQueue {
 public:
  void arm(const DueTimer& timer) { heap_.push(Entry{timer, next_seq_++}); }
  bool empty() const { return heap_.empty(); }
  // The earliest deadline; the queue must not be empty.
  TimeNs next_at() const { return heap_.top().timer.at; }
  // The earliest timer, removed, when it is due at `now`.
  std::optional<DueTimer> pop_due(TimeNs now) {
    if (heap_.empty() || heap_.top().timer.at > now) return std::nullopt;
    DueTimer due = heap_.top().timer;
    heap_.pop();
    return due;
  }
  void clear() { heap_ = {}; }

 private:
  struct Entry {
    DueTimer timer;
    std::uint64_t seq = 0;  // arming order breaks ties
    bool operator>(const Entry& other) const {
      return timer.at != other.timer.at ? timer.at > other.timer.at : seq > other.seq;
    }
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap_;
  std::uint64_t next_seq_ = 0;
};

}  // namespace tsunagi::runner
