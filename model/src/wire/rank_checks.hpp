// Ranks that arrive from the wire are claims. The decoders only hold them to the wire's own
// limit (kMaxRanks, 2^20); each role holds them to the run's size before it indexes anything
// by them, since a rank past the process count used as an index reads or writes out of bounds
// (docs/security.md). Private to the core's roles.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi::wire {

// `rank` names one of the run's `processes` ranks.
inline bool known_rank(Rank rank, int processes) {
  return rank >= 0 && rank < processes;
}

// Why `rank` (the frame's `field`) is refused, or nothing when it names a process of the run.
inline std::optional<std::string> unknown_rank(Rank rank, int processes, const char* field) {
  if (known_rank(rank, processes)) return std::nullopt;
  return std::string(field) + " rank " + std::to_string(rank) + " is not a process of this run (" +
         std::to_string(processes) + " processes)";
}

// The first rank of `ranks` that names no process of the run, as a reason.
inline std::optional<std::string> unknown_rank_in(const std::vector<Rank>& ranks, int processes,
                                                  const char* field) {
  for (Rank rank : ranks)
    if (auto why = unknown_rank(rank, processes, field)) return why;
  return std::nullopt;
}

}  // namespace tsunagi::wire
