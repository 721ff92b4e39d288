// Parsing trace.jsonl for `tsunagi compare`.
#include "tsunagi/runner/results/trace_reader.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>

namespace tsunagi::runner {

namespace {

std::optional<long long> rank_number(const std::string& label) {
  if (label.size() < 2 || label.front() != 'r') return std::nullopt;
  long long rank = 0;
  const char* last = label.data() + label.size();
  auto [end, error] = std::from_chars(label.data() + 1, last, rank);
  if (error != std::errc{} || end != last) return std::nullopt;
  return rank;
}

[[noreturn]] void malformed(const std::filesystem::path& file, std::size_t line,
                            const std::string& what) {
  throw CompareError(file.string() + ":" + std::to_string(line) + ": " + what +
                     " — every line must be an object with proc, seq, kind and detail, as "
                     "written by `tsunagi run`");
}

Decision parse_line(const std::filesystem::path& file, std::size_t line_no, const std::string& text,
                    std::string& proc, bool keep_timing) {
  nlohmann::json line;
  try {
    line = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    malformed(file, line_no, std::string("not JSON (") + error.what() + ")");
  }
  if (!line.is_object()) malformed(file, line_no, "not a JSON object");
  auto proc_it = line.find("proc");
  auto seq_it = line.find("seq");
  auto kind_it = line.find("kind");
  if (proc_it == line.end() || !proc_it->is_string()) malformed(file, line_no, "no string 'proc'");
  if (seq_it == line.end() || !seq_it->is_number_unsigned()) {
    malformed(file, line_no, "no non-negative integer 'seq'");
  }
  if (kind_it == line.end() || !kind_it->is_string()) malformed(file, line_no, "no string 'kind'");
  proc = proc_it->get<std::string>();
  Decision decision;
  decision.seq = seq_it->get<std::uint64_t>();
  decision.kind = kind_it->get<std::string>();
  auto detail_it = line.find("detail");
  if (detail_it != line.end()) decision.detail = std::move(*detail_it);
  if (!keep_timing) strip_timing(decision.detail);
  decision.line = line_no;
  auto t_it = line.find("t_ns");
  if (t_it != line.end() && t_it->is_number_integer()) decision.t_ns = t_it->get<std::int64_t>();
  return decision;
}

}  // namespace

bool ProcessOrder::operator()(const std::string& a, const std::string& b) const {
  const auto rank_a = rank_number(a);
  const auto rank_b = rank_number(b);
  if (rank_a.has_value() != rank_b.has_value()) return !rank_a.has_value();
  if (rank_a && *rank_a != *rank_b) return *rank_a < *rank_b;
  return a < b;
}

void strip_timing(nlohmann::json& value) {
  if (value.is_object()) {
    value.erase("timing");
    for (auto& member : value) strip_timing(member);
  } else if (value.is_array()) {
    for (auto& element : value) strip_timing(element);
  }
}

ProcessDecisions read_trace_file(const std::filesystem::path& file, bool keep_timing) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw CompareError("cannot read " + file.string());
  ProcessDecisions decisions;
  std::string text;
  std::string proc;
  for (std::size_t line_no = 1; std::getline(in, text); ++line_no) {
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    Decision decision = parse_line(file, line_no, text, proc, keep_timing);
    decisions[proc].push_back(std::move(decision));
  }
  if (in.bad()) throw CompareError("error while reading " + file.string());
  // The recorder writes each process's lines in seq order already; sorting makes hand-edited
  // or merged traces compare the same way.
  for (auto& [label, list] : decisions) {
    std::stable_sort(list.begin(), list.end(),
                     [](const Decision& x, const Decision& y) { return x.seq < y.seq; });
  }
  return decisions;
}

}  // namespace tsunagi::runner
