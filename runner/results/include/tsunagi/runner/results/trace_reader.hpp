// Reading trace.jsonl back: the decisions of each process, in sequence order, with timings
// removed so that two runs can be compared decision by decision.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tsunagi::runner {

// A file is missing, unreadable or malformed; the message names it (and the line).
class CompareError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Decision {
  std::uint64_t seq = 0;
  std::string kind;
  nlohmann::json detail;  // with every "timing" member removed, at any depth (unless kept)
  std::size_t line = 0;   // 1-based line in trace.jsonl, for messages
  std::int64_t t_ns = 0;  // backend time of the decision (0 when the line has none)
};

// Orders process labels as people read them: named processes ("rendezvous", relays) first,
// alphabetically, then ranks by number (r2 before r10).
struct ProcessOrder {
  bool operator()(const std::string& a, const std::string& b) const;
};

using ProcessDecisions = std::map<std::string, std::vector<Decision>, ProcessOrder>;

// Parses a trace.jsonl file; throws CompareError naming file:line on anything malformed.
// `keep_timing` keeps the "timing" members (the run report draws them; compare never does).
ProcessDecisions read_trace_file(const std::filesystem::path& file, bool keep_timing = false);

// Removes every object member called "timing", recursively: timings differ between backends and
// runs by design (docs/architecture.md, "Traces") and never count as a different decision.
void strip_timing(nlohmann::json& value);

}  // namespace tsunagi::runner
