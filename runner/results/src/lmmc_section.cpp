// result.json "lmmc" (paper 003, docs/result-schema.md): every rank's link-memory counts summed,
// page faults under the run's replacement policy, the aggregate bandwidth, and the ping-pong
// series when there was one. A rejected message, a byte out of order or a rank that never
// finished makes the run fail (lmmc_problems, via result.cpp).
#include "result_sections.hpp"

namespace tsunagi::runner::detail {

using nlohmann::ordered_json;

namespace {

constexpr const char* kRankCounts[] = {"writes",
                                       "page_faults",
                                       "first_touches",
                                       "paging_requests_sent",
                                       "paging_requests_applied",
                                       "bytes_written",
                                       "bytes_read",
                                       "messages_read",
                                       "blocked_writes",
                                       "credits",
                                       "rejected",
                                       "mismatched_bytes",
                                       "unfinished"};

}  // namespace

ordered_json lmmc_section(const Recorder& recorder) {
  const nlohmann::json* series = nullptr;
  ordered_json totals = ordered_json::object();
  for (const char* key : kRankCounts) totals[key] = 0;
  int ranks = 0;
  std::uint64_t makespan = 0;
  std::string policy;
  ordered_json frames = nullptr;
  ordered_json first_problem = nullptr;
  for (const ReportEntry& report : recorder.reports()) {
    if (report.key == "lmmc") series = &report.value;
    if (report.key != "lmmc_rank") continue;
    ++ranks;
    for (const char* key : kRankCounts)
      totals[key] = totals[key].get<std::uint64_t>() + get_count(report.value, key).value_or(0);
    makespan = std::max(makespan, get_count(report.value, "makespan_ns").value_or(0));
    policy = report.value.value("policy", "");
    frames = report.value.value("frames", 0);
    for (const char* why : {"first_rejection", "error"}) {
      const std::string text = report.value.value(why, "");
      if (first_problem.is_null() && !text.empty()) first_problem = report.proc + ": " + text;
    }
  }
  if (series == nullptr && ranks == 0) return nullptr;
  ordered_json section = ordered_json::object();
  section["policy"] = policy;
  section["frames_per_link"] = frames;
  section["ranks_reported"] = ranks;
  for (auto it = totals.begin(); it != totals.end(); ++it) section[it.key()] = it.value();
  section["page_faults_by_policy"] = ordered_json::object({{policy, totals["page_faults"]}});
  const auto writes = totals["writes"].get<std::uint64_t>();
  section["fault_rate"] = writes > 0
                              ? static_cast<double>(totals["page_faults"].get<std::uint64_t>()) /
                                    static_cast<double>(writes)
                              : 0.0;
  section["makespan_ns"] = makespan;
  section["aggregate_bytes_per_s"] =
      makespan > 0 ? static_cast<double>(totals["bytes_written"].get<std::uint64_t>()) * 1e9 /
                         static_cast<double>(makespan)
                   : 0.0;
  section["first_problem"] = first_problem;
  if (series != nullptr)
    for (auto it = series->begin(); it != series->end(); ++it) section[it.key()] = it.value();
  return section;
}

std::vector<std::string> lmmc_problems(const ordered_json& section, int processes) {
  std::vector<std::string> problems;
  if (section["ranks_reported"].get<int>() != processes)
    problems.push_back("lmmc: " + section["ranks_reported"].dump() + " of " +
                       std::to_string(processes) + " ranks reported their link memory");
  for (const char* key : {"rejected", "mismatched_bytes", "unfinished"})
    if (section[key].get<std::uint64_t>() > 0)
      problems.push_back("lmmc: " + section[key].dump() + " " + key + " (" +
                         section["first_problem"].dump() + ")");
  if (section["bytes_written"] != section["bytes_read"])
    problems.push_back("lmmc: " + section["bytes_written"].dump() + " bytes written but " +
                       section["bytes_read"].dump() + " read");
  return problems;
}

}  // namespace tsunagi::runner::detail
