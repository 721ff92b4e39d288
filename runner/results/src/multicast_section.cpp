// result.json "multicast" (paper 002): the master's series (per algorithm, size and group size,
// the trimmed means) and what every rank saw. A piece at a non-member, a refused piece or ack,
// or a multicast a member never finished makes the run fail (run_problems, result.cpp).
#include "result_sections.hpp"

namespace tsunagi::runner::detail {

using nlohmann::ordered_json;

namespace {

constexpr const char* kRankCounts[] = {
    "pieces_received",      "pieces_sent", "bytes_received", "acks_sent",
    "frames_at_non_member", "refused",     "undeliverable",  "unfinished"};

}  // namespace

ordered_json multicast_section(const Recorder& recorder) {
  const nlohmann::json* series = nullptr;
  ordered_json totals = ordered_json::object();
  for (const char* key : kRankCounts) totals[key] = 0;
  int ranks = 0;
  ordered_json first_refusal = nullptr;
  for (const ReportEntry& report : recorder.reports()) {
    if (report.key == "multicast") series = &report.value;
    if (report.key != "multicast_rank") continue;
    ++ranks;
    for (const char* key : kRankCounts)
      totals[key] = totals[key].get<std::uint64_t>() + get_count(report.value, key).value_or(0);
    auto refusal = report.value.find("first_refusal");
    if (first_refusal.is_null() && refusal != report.value.end() && refusal->is_string() &&
        !refusal->get<std::string>().empty())
      first_refusal = report.proc + ": " + refusal->get<std::string>();
  }
  if (series == nullptr && ranks == 0) return nullptr;
  ordered_json section = ordered_json::object();
  section["ranks_reported"] = ranks;
  for (auto it = totals.begin(); it != totals.end(); ++it) section[it.key()] = it.value();
  section["first_refusal"] = first_refusal;
  if (series != nullptr) {
    for (auto it = series->begin(); it != series->end(); ++it) section[it.key()] = it.value();
  }
  return section;
}

std::vector<std::string> multicast_problems(const ordered_json& section, int processes) {
  std::vector<std::string> problems;
  if (section.is_null()) return problems;
  if (section["ranks_reported"].get<int>() != processes)
    problems.push_back("multicast: " + section["ranks_reported"].dump() + " of " +
                       std::to_string(processes) + " ranks reported what they received");
  if (section["frames_at_non_member"].get<std::uint64_t>() > 0)
    problems.push_back("multicast: " + section["frames_at_non_member"].dump() +
                       " pieces reached ranks outside their group");
  if (section["refused"].get<std::uint64_t>() > 0)
    problems.push_back("multicast: " + section["refused"].dump() +
                       " messages refused (first: " + section["first_refusal"].dump() + ")");
  if (section["unfinished"].get<std::uint64_t>() > 0)
    problems.push_back("multicast: members left " + section["unfinished"].dump() +
                       " multicasts unfinished");
  return problems;
}

}  // namespace tsunagi::runner::detail
