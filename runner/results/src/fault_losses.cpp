// Which losses the scenario's [[faults]] explain: only those of processes a fault really killed
// (issue 29: a fault declared for 82800 s on a 10 ms run used to excuse 304 lost messages).
#include <algorithm>

#include "result_sections.hpp"
#include "tsunagi/runner/driver/process_table.hpp"

namespace tsunagi::runner::detail {
namespace {

using nlohmann::ordered_json;

// Timed-out pairs with neither rank killed; all of them count as explained once a process that
// is not a rank (a relay, the rendezvous) was killed, since every pair's path may cross it.
std::size_t unexplained_timeouts(const Recorder& recorder, const std::set<std::string>& killed) {
  const bool beyond_ranks = std::any_of(killed.begin(), killed.end(), [](const std::string& l) {
    return l.size() < 2 || l[0] != 'r' ||
           !std::all_of(l.begin() + 1, l.end(), [](char c) { return c >= '0' && c <= '9'; });
  });
  if (beyond_ranks) return 0;
  std::size_t count = 0;
  for (const auto& [from, to] : connectivity_pairs(recorder, "timed_out"))
    if (!killed.count(process_label(from)) && !killed.count(process_label(to))) ++count;
  return count;
}

}  // namespace

std::set<std::string> killed_by_faults(const Recorder& recorder) {
  std::set<std::string> killed;
  for (const ExitEntry& exit : recorder.exits())
    if (exit.reason == kKilledByFaults) killed.insert(exit.proc);
  return killed;
}

std::vector<std::string> loss_problems(const ordered_json& result, const Recorder& recorder,
                                       const std::set<std::string>& killed) {
  std::vector<std::string> problems;
  // Message counts are sums over the ranks' reports, so a loss cannot be tied to one process:
  // a process killed during the run is what may have held them.
  const ordered_json& lost = result.at("messages").at("lost");
  if (killed.empty() && lost.is_number_unsigned() && lost.get<std::uint64_t>() > 0)
    problems.push_back(std::to_string(lost.get<std::uint64_t>()) +
                       " messages were sent but neither delivered nor reported undeliverable" +
                       (result.at("run").at("faults_declared") > 0
                            ? " (the [[faults]] declared killed nothing before the run ended)"
                            : ""));
  const std::size_t timed_out = unexplained_timeouts(recorder, killed);
  if (timed_out > 0)
    problems.push_back(std::to_string(timed_out) +
                       " ordered rank pairs got neither an answer nor an undeliverable notice "
                       "by the connectivity deadline" +
                       (killed.empty() ? "" : ", and neither rank of them was killed"));
  return problems;
}

bool connectivity_failure_explained(const Recorder& recorder, const std::set<std::string>& killed) {
  return !killed.empty() && unexplained_timeouts(recorder, killed) == 0;
}

}  // namespace tsunagi::runner::detail
