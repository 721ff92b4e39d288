// Comparing two runs decision by decision.
#include "tsunagi/runner/results/compare.hpp"

#include <algorithm>
#include <fstream>

#include "tsunagi/runner/results/output_files.hpp"

namespace tsunagi::runner {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kShownChars = 100;

// Long details (whole routing tables) are cut, on a UTF-8 character boundary.
std::string shorten(const std::string& text) {
  if (text.size() <= kShownChars) return text;
  std::size_t cut = kShownChars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "... (" + std::to_string(text.size()) + " chars)";
}

std::string show(const nlohmann::json& value) {
  return shorten(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

// Where two details first differ (a JSON pointer) and what each side has there.
std::string describe_detail_difference(const nlohmann::json& a, const nlohmann::json& b) {
  const nlohmann::json patch = nlohmann::json::diff(a, b);
  const std::string path = patch.empty() ? "" : patch[0].value("path", "");
  if (path.empty()) return "A=" + show(a) + ", B=" + show(b);
  const nlohmann::json::json_pointer pointer(path);
  const std::string in_a = a.contains(pointer) ? show(a.at(pointer)) : "(absent)";
  const std::string in_b = b.contains(pointer) ? show(b.at(pointer)) : "(absent)";
  return "at " + path + ": A=" + in_a + ", B=" + in_b;
}

// The first decision where two processes differ, or "" when one's list is a prefix of the
// other's and they have the same length.
std::string first_difference(const std::string& proc, const std::vector<Decision>& a,
                             const std::vector<Decision>& b) {
  const std::size_t common = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < common; ++i) {
    const std::string where = "proc " + proc + ", decision #" + std::to_string(i);
    if (a[i].kind != b[i].kind) {
      return where + ": kind A=" + a[i].kind + ", B=" + b[i].kind;
    }
    if (a[i].detail != b[i].detail) {
      return where + " (kind " + a[i].kind +
             "): " + describe_detail_difference(a[i].detail, b[i].detail);
    }
  }
  if (a.size() == b.size()) return {};
  const bool a_longer = a.size() > b.size();
  const Decision& extra = a_longer ? a[common] : b[common];
  return "proc " + proc + ": A has " + std::to_string(a.size()) + " decisions, B has " +
         std::to_string(b.size()) + "; first extra one is #" + std::to_string(common) + " (kind " +
         extra.kind + ") in " + (a_longer ? "A" : "B");
}

void note(CompareOutcome& outcome, std::size_t max_differences, std::string difference) {
  outcome.same = false;
  ++outcome.differing;
  if (outcome.differences.size() < max_differences)
    outcome.differences.push_back(std::move(difference));
}

std::size_t count_decisions(const ProcessDecisions& decisions) {
  std::size_t count = 0;
  for (const auto& [proc, list] : decisions) count += list.size();
  return count;
}

fs::path existing_file(const fs::path& dir, const char* name) {
  if (!fs::is_directory(dir)) {
    throw CompareError("run directory " + dir.string() +
                       " does not exist — pass the --out "
                       "directory of a `tsunagi run`");
  }
  const fs::path file = dir / name;
  if (!fs::is_regular_file(file)) {
    throw CompareError(file.string() + " does not exist — is " + dir.string() +
                       " the output directory of a finished `tsunagi run`?");
  }
  return file;
}

nlohmann::json read_result(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw CompareError("cannot read " + file.string());
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    throw CompareError(file.string() + ": not valid JSON (" + error.what() + ")");
  }
}

nlohmann::json at_pointer(const nlohmann::json& result, const std::string& pointer) {
  const nlohmann::json::json_pointer where(pointer);
  return result.contains(where) ? result.at(where) : nlohmann::json(nullptr);
}

// What a run came to, beside its decisions: the same decisions with a different outcome (9 pairs
// timed out on one backend, all answered on the other) are not the same run. Counts that depend
// on timing (messages relayed before a shortcut came up, probes) are left out.
constexpr const char* kOutcomeKeys[] = {
    "/inference/groups",   "/ok",
    "/workload/verified",  "/messages/sent",
    "/messages/delivered", "/messages/undeliverable",
    "/messages/lost",      "/relay/pairs_connected",
    "/relay/unreached",    "/relay/timed_out_pairs",
};

void compare_outcomes(const nlohmann::json& a, const nlohmann::json& b, std::size_t max_differences,
                      CompareOutcome& outcome) {
  for (const char* key : kOutcomeKeys) {
    const nlohmann::json in_a = at_pointer(a, key);
    const nlohmann::json in_b = at_pointer(b, key);
    if (in_a == in_b) continue;
    std::string dotted = std::string(key).substr(1);
    std::replace(dotted.begin(), dotted.end(), '/', '.');
    note(outcome, max_differences,
         "result.json " + dotted + ": A=" + show(in_a) + ", B=" + show(in_b));
  }
}

}  // namespace

void compare_decisions(const ProcessDecisions& a, const ProcessDecisions& b,
                       std::size_t max_differences, CompareOutcome& outcome) {
  outcome.processes_a = a.size();
  outcome.processes_b = b.size();
  outcome.decisions_a = count_decisions(a);
  outcome.decisions_b = count_decisions(b);
  // Walk the union of process labels in one ordered pass.
  auto ia = a.begin();
  auto ib = b.begin();
  const ProcessOrder less;
  while (ia != a.end() || ib != b.end()) {
    if (ib == b.end() || (ia != a.end() && less(ia->first, ib->first))) {
      note(outcome, max_differences,
           "proc " + ia->first + ": only in A (" + std::to_string(ia->second.size()) +
               " decisions)");
      ++ia;
    } else if (ia == a.end() || less(ib->first, ia->first)) {
      note(outcome, max_differences,
           "proc " + ib->first + ": only in B (" + std::to_string(ib->second.size()) +
               " decisions)");
      ++ib;
    } else {
      std::string difference = first_difference(ia->first, ia->second, ib->second);
      if (!difference.empty()) note(outcome, max_differences, std::move(difference));
      ++ia;
      ++ib;
    }
  }
}

CompareOutcome compare_runs(const fs::path& dir_a, const fs::path& dir_b,
                            std::size_t max_differences) {
  // Check every file before reading any, so a typo is reported before a long parse.
  const fs::path trace_a = existing_file(dir_a, kTraceFileName);
  const fs::path trace_b = existing_file(dir_b, kTraceFileName);
  const fs::path result_a = existing_file(dir_a, kResultFileName);
  const fs::path result_b = existing_file(dir_b, kResultFileName);

  CompareOutcome outcome;
  compare_outcomes(read_result(result_a), read_result(result_b), max_differences, outcome);
  compare_decisions(read_trace_file(trace_a), read_trace_file(trace_b), max_differences, outcome);
  return outcome;
}

}  // namespace tsunagi::runner
