// Every realnet daemon counts time from its own start on its own machine's clock; nothing of
// the launcher's clock is sent to it. At its start a daemon records one ClockStamp: the start
// on CLOCK_MONOTONIC, the same instant on CLOCK_REALTIME, and which boot of which machine that
// monotonic clock belongs to. Merging the event files (event_replay) shifts each process's
// times by its start's offset from a reference process (the rendezvous):
//
//   same boot id (one machine, any namespace)  monotonic difference: exact
//   different machines                         realtime difference: as good as NTP
//
// The same rule runs for every mode (loopback, netns, ssh hosts, Slurm) and for
// `tsunagi collect`. docs/realnet.md, "Time".
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "tsunagi/model/types.hpp"

namespace tsunagi::realnet {

struct ClockStamp {
  std::int64_t monotonic_ns = 0;  // CLOCK_MONOTONIC of the start
  std::int64_t realtime_ns = 0;   // CLOCK_REALTIME at the same instant
  std::string boot_id;            // /proc/sys/kernel/random/boot_id: one monotonic clock
  std::string host;               // gethostname(), for messages
};

// The stamp of `start` (a steady_clock time point of this process, usually its start).
ClockStamp clock_stamp(std::chrono::steady_clock::time_point start);

// How many ns after `reference`'s start `other` started, by the rule above.
TimeNs clock_offset(const ClockStamp& reference, const ClockStamp& other);

// As an event-file line ({"type":"clock",...}) and back (nullopt for a line that is not one).
nlohmann::json clock_line(const std::string& proc, const ClockStamp& stamp);
std::optional<ClockStamp> parse_clock_line(const nlohmann::json& line);

// The status line's words after "clock" ("MONO REAL BOOT_ID HOST") and back.
std::string clock_words(const ClockStamp& stamp);
std::optional<ClockStamp> parse_clock_words(const std::string& words);

}  // namespace tsunagi::realnet
