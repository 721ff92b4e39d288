// `tsunagi compare A B`: did two runs make the same protocol decisions?
//
// Decisions are compared per process, in sequence order, as (kind, detail) pairs; backend time
// (t_ns) and anything under a "timing" key are ignored, so runs on different backends compare
// equal when they decided the same things. The inferred groups in result.json are compared too.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "tsunagi/runner/results/trace_reader.hpp"

namespace tsunagi::runner {

struct CompareOutcome {
  bool same = true;
  // The first differences, in process order; at most one per process (what follows a process's
  // first different decision usually differs because of it).
  std::vector<std::string> differences;
  std::size_t differing = 0;  // differences found in all, including those not listed
  std::size_t processes_a = 0;
  std::size_t processes_b = 0;
  std::size_t decisions_a = 0;
  std::size_t decisions_b = 0;
};

// Compares DIR_A/{trace.jsonl,result.json} with DIR_B's. Throws CompareError when a directory
// or file is missing or malformed.
CompareOutcome compare_runs(const std::filesystem::path& dir_a, const std::filesystem::path& dir_b,
                            std::size_t max_differences = 10);

// Compares two runs' decisions already read from their traces (the core of compare_runs).
void compare_decisions(const ProcessDecisions& a, const ProcessDecisions& b,
                       std::size_t max_differences, CompareOutcome& outcome);

}  // namespace tsunagi::runner
