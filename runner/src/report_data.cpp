// Reading a run's files for the report (report_data.hpp).
#include "report_data.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>

namespace tsunagi::runner::report {
namespace {

nlohmann::ordered_json read_json_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw CompareError("cannot read " + file.string());
  try {
    return nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::parse_error& error) {
    throw CompareError(file.string() + ": not JSON (" + error.what() +
                       ") — was it written by `tsunagi run`?");
  }
}

}  // namespace

RunFiles read_run_files(const std::filesystem::path& dir) {
  RunFiles run;
  run.dir = dir;
  run.result = read_json_file(dir / "result.json");
  if (!run.result.is_object())
    throw CompareError((dir / "result.json").string() + ": not a JSON object");
  const std::filesystem::path topology = dir / "topology.json";
  if (std::filesystem::exists(topology)) run.topology = read_json_file(topology);
  run.trace = read_trace_file(dir / "trace.jsonl", /*keep_timing=*/true);
  run.end_ns = 1;
  for (const auto& [label, decisions] : run.trace)
    for (const Decision& decision : decisions) run.end_ns = std::max(run.end_ns, decision.t_ns);
  return run;
}

int rank_of(const std::string& label) {
  if (label.size() < 2 || label.front() != 'r') return -1;
  int rank = 0;
  const char* last = label.data() + label.size();
  auto [end, error] = std::from_chars(label.data() + 1, last, rank);
  return error == std::errc{} && end == last && rank >= 0 ? rank : -1;
}

int process_count(const RunFiles& run) {
  const auto it = run.result.find("processes");
  return it != run.result.end() && it->is_number_integer() ? it->get<int>() : 0;
}

std::vector<int> inferred_group_of_rank(const RunFiles& run) {
  std::vector<int> group_of(static_cast<std::size_t>(process_count(run)), -1);
  const auto inference = run.result.find("inference");
  if (inference == run.result.end() || !inference->is_object()) return group_of;
  const auto groups = inference->find("groups");
  if (groups == inference->end() || !groups->is_array()) return group_of;
  int index = 0;
  for (const auto& group : *groups) {
    if (!group.is_array()) continue;
    for (const auto& rank : group)
      if (rank.is_number_integer() && rank.get<int>() >= 0 &&
          rank.get<std::size_t>() < group_of.size())
        group_of[rank.get<std::size_t>()] = index;
    ++index;
  }
  return group_of;
}

}  // namespace tsunagi::runner::report
