// Reading a run's files for the report (report_data.hpp).
#include "report_data.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string>

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

// messages.csv's rows; its header must be the one write_messages_csv writes.
std::vector<Message> read_messages(const std::filesystem::path& file) {
  std::vector<Message> messages;
  std::ifstream in(file, std::ios::binary);
  if (!in) return messages;
  std::string line;
  int number = 1;
  if (!std::getline(in, line) || line != "from,to,seq,tag,bytes,sent_ns,received_ns")
    throw CompareError(file.string() + ":1: not the header of messages.csv");
  while (std::getline(in, line)) {
    ++number;
    std::int64_t cells[7] = {0, 0, 0, 0, 0, 0, -1};
    const char* at = line.data();
    const char* last = line.data() + line.size();
    for (int i = 0; i < 7; ++i) {
      if (i == 6 && at == last) break;  // no arrival seen
      auto [end, error] = std::from_chars(at, last, cells[i]);
      if (error != std::errc{} || (i < 6 ? end == last || *end != ',' : end != last))
        throw CompareError(file.string() + ":" + std::to_string(number) +
                           ": not a row of seven numbers (from,to,seq,tag,bytes,sent_ns,"
                           "received_ns)");
      at = end + (i < 6 ? 1 : 0);
    }
    messages.push_back({static_cast<int>(cells[0]), static_cast<int>(cells[1]),
                        static_cast<std::uint64_t>(cells[4]), cells[3], cells[5], cells[6]});
  }
  return messages;
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
  run.messages = read_messages(dir / "messages.csv");
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
