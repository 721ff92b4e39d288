// What a run report is drawn from: DIR/result.json, DIR/trace.jsonl (with times),
// DIR/topology.json and DIR/messages.csv, read once, plus the few things every picture needs
// from them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/runner/results/result.hpp"
#include "tsunagi/runner/results/trace_reader.hpp"

namespace tsunagi::runner::report {

// A row of messages.csv (output_files.hpp): one workload message.
struct Message {
  int from = -1, to = -1;
  std::uint64_t bytes = 0;
  std::int64_t tag = 0;
  std::int64_t sent_ns = 0;
  std::int64_t received_ns = -1;  // -1: its arrival was not seen
};

struct RunFiles {
  std::filesystem::path dir;
  nlohmann::ordered_json result;
  nlohmann::ordered_json topology;  // null when the run predates topology.json
  // Decisions of each process in seq order, timings kept; processes in ProcessOrder (rendezvous
  // and relays first, then ranks by number).
  ProcessDecisions trace;
  std::int64_t end_ns = 0;        // the last decision's time, at least 1
  std::vector<Message> messages;  // empty when the run recorded none (no messages.csv)
};

// Reads the files; throws CompareError naming file:line for a missing or malformed one
// (topology.json and messages.csv may be missing: the pictures of the true network, or the
// message arrows, are then left out).
RunFiles read_run_files(const std::filesystem::path& dir);

// The inferred group of each rank (-1 where none), from result.json's inference.groups.
std::vector<int> inferred_group_of_rank(const RunFiles& run);

// The rank number of "r12"; -1 for other labels.
int rank_of(const std::string& label);

int process_count(const RunFiles& run);

}  // namespace tsunagi::runner::report
