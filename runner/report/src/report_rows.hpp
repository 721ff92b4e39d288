// The rows of the report's timeline: every process, grouped by the switch group the run
// inferred (rendezvous and relays first), or, above kRowsPerRankMax ranks, one row per group
// that stands for all its ranks (report_rows.cpp says how).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "report_data.hpp"

namespace tsunagi::runner::report {

// Above this many ranks the timeline draws one row per group, not per rank: a few hundred rows
// still fit a screen with a label each.
inline constexpr int kRowsPerRankMax = 300;
// Ranks per row when the run has no groups to gather them by (blocks of consecutive ranks).
inline constexpr int kBlockRanks = 64;

struct Span {
  int phase = 0;  // index in phases()
  std::int64_t t0 = 0, t1 = 0;
  std::string note;  // extra tooltip text (how many ranks entered it, when)
};

struct Tick {
  std::string kind;
  std::int64_t t = 0;
  std::string note;
};

struct Row {
  std::string label;  // "r12", "rendezvous", "G3"
  std::string proc;   // the process's trace label; "" for a row of many ranks
  int band = -1;      // index in Timeline::bands, -1 for the rendezvous and relays
  int members = 1;    // ranks the row stands for
  std::vector<Span> spans;
  std::vector<Tick> ticks;
};

// Consecutive rows of one group (or block of ranks), labelled at the left.
struct Band {
  std::string label;  // "G3: 40 ranks"
  std::string note;   // tooltip: which ranks
  int group = -1;     // inferred group, -1 for a block or ranks without one
  std::size_t first_row = 0, rows = 0;
  std::string on = {};  // the true switch all its ranks hang off (topology.json), if one
};

// A decision of one process about another (a shortcut opened, a connect failed): an arrow
// from the row of the one to the row of the other.
struct Arrow {
  std::string kind;
  std::size_t from_row = 0, to_row = 0;
  std::int64_t t = 0;
  std::string note;
};

// A workload message (messages.csv): from the sender's row when it left to the receiver's row
// when it arrived.
struct MessageArrow {
  std::size_t from_row = 0, to_row = 0;
  std::int64_t sent = 0, received = 0;
  std::string note;
};

struct Timeline {
  std::vector<Row> rows;
  std::vector<Band> bands;
  std::vector<Arrow> arrows;
  std::size_t arrows_total = 0;  // before sampling (kArrowsMax)
  bool per_group = false;        // rows stand for groups, not ranks
  std::size_t groups = 0;        // for the group colours
  std::int64_t end_ns = 1;
  // Every message of messages.csv whose arrival was seen, on rows per rank only.
  std::vector<MessageArrow> messages;
  std::size_t messages_recorded = 0;  // rows of messages.csv
};

inline constexpr std::size_t kArrowsMax = 400;
inline constexpr std::size_t kTicksPerGroupRow = 60;

Timeline build_timeline(const RunFiles& run);

}  // namespace tsunagi::runner::report
