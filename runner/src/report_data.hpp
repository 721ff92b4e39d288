// What a run report is drawn from: DIR/result.json, DIR/trace.jsonl (with times) and
// DIR/topology.json, read once, plus the few things every picture needs from them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/runner/result.hpp"
#include "tsunagi/runner/trace_reader.hpp"

namespace tsunagi::runner::report {

struct RunFiles {
  std::filesystem::path dir;
  nlohmann::ordered_json result;
  nlohmann::ordered_json topology;  // null when the run predates topology.json
  // Decisions of each process in seq order, timings kept; processes in ProcessOrder (rendezvous
  // and relays first, then ranks by number).
  ProcessDecisions trace;
  std::int64_t end_ns = 0;  // the last decision's time, at least 1
};

// Reads the three files; throws CompareError naming file:line for a missing or malformed one
// (topology.json may be missing: the pictures of the true network are then left out).
RunFiles read_run_files(const std::filesystem::path& dir);

// The inferred group of each rank (-1 where none), from result.json's inference.groups.
std::vector<int> inferred_group_of_rank(const RunFiles& run);

// The rank number of "r12"; -1 for other labels.
int rank_of(const std::string& label);

int process_count(const RunFiles& run);

}  // namespace tsunagi::runner::report
