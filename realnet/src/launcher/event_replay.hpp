// Merging the processes' event files (adapter/event_log.hpp) into the runner's observer.
//
// Time: every daemon counts from its own start and writes its clock stamp first
// (adapter/clock_stamp.hpp); each process's times are shifted by its start's offset from the
// rendezvous's start (from the first process with a stamp when the rendezvous has none), so
// time 0 is the rendezvous's start, whatever machines the processes ran on.
// Order: trace, report, exit and message events of all processes sorted by that time, ties
// broken by process (ranks in order, then the rendezvous) and then by each file's own order, so
// a process's decisions keep their order (that is what `tsunagi compare` compares) and the same
// files always give the same trace.jsonl. Counts are summed over processes and given as backend
// counts.
#pragma once

#include <string>
#include <vector>

#include "tsunagi/model/types.hpp"
#include "tsunagi/runner/driver/observer.hpp"

namespace tsunagi::realnet {

// ProcessRecord::died_at: synthesize the exit at the process's last event (collect: no
// launcher saw it die).
inline constexpr TimeNs kAtLastEvent = -1;

struct ProcessRecord {
  std::string label;  // "r3", "rendezvous"
  std::string events_file;
  // Filled by the launcher when the process never wrote its exit (died, never started).
  bool synthesize_exit = false;
  TimeNs died_at = 0;     // on the rendezvous's clock (see above), or kAtLastEvent
  std::string death;      // reason of the synthesized exit
  bool intended = false;  // killed by the scenario's [[faults]]: the synthesized exit is ok
};

struct ReplayOutcome {
  TimeNs last_exit = 0;
  std::vector<std::string> missing_exits;  // labels whose file had no exit event
  std::vector<std::string> problems;       // unreadable or malformed files
};

// Reads every file (a missing file is an empty one), replays into `observer`.
ReplayOutcome replay_events(const std::vector<ProcessRecord>& processes,
                            runner::RunObserver& observer);

// True when the file holds an exit event (for deciding whether a death needs synthesizing).
bool has_exit_event(const std::string& events_file);

}  // namespace tsunagi::realnet
