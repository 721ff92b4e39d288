// Finding the reports result.json is built from, and checking their fields.
#include <charconv>
#include <string_view>

#include "result_sections.hpp"

namespace tsunagi::runner::detail {

namespace {

// "r12" -> 12; anything else (the rendezvous, relays) -> nullopt.
std::optional<int> rank_of_label(std::string_view label) {
  if (label.size() < 2 || label.front() != 'r') return std::nullopt;
  int rank = 0;
  const char* first = label.data() + 1;
  const char* last = label.data() + label.size();
  auto [end, error] = std::from_chars(first, last, rank);
  if (error != std::errc{} || end != last || rank < 0) return std::nullopt;
  return rank;
}

// At most `limit` labels, so a run with 10^5 silent ranks still gives a readable message.
std::string list_labels(const std::vector<std::string>& labels, std::size_t limit = 5) {
  std::string text;
  for (std::size_t i = 0; i < labels.size() && i < limit; ++i) {
    if (i > 0) text += ", ";
    text += labels[i];
  }
  if (labels.size() > limit) text += ", ...";
  return text;
}

}  // namespace

ReportIndex index_reports(const Recorder& recorder, int processes) {
  ReportIndex index;
  index.nodes.assign(static_cast<std::size_t>(processes > 0 ? processes : 0), nullptr);
  // Later reports replace earlier ones: a process that reports twice means its final word.
  for (const ReportEntry& report : recorder.reports()) {
    if (report.key == "node") {
      std::optional<int> rank = rank_of_label(report.proc);
      if (rank && *rank < processes) index.nodes[static_cast<std::size_t>(*rank)] = &report.value;
    } else if (report.key == "inference") {
      index.inference = &report.value;
      index.inference_from = report.proc;
    } else if (report.key == "workload") {
      index.workload = &report.value;
      index.workload_from = report.proc;
      index.workloads[report.proc] = &report.value;
    }
  }
  for (std::size_t rank = 0; rank < index.nodes.size(); ++rank) {
    if (index.nodes[rank] == nullptr) {
      index.missing_nodes.push_back(process_label(static_cast<Rank>(rank)));
    }
  }
  return index;
}

std::optional<std::uint64_t> get_count(const nlohmann::json& report, const char* field) {
  if (!report.is_object()) return std::nullopt;
  auto it = report.find(field);
  if (it == report.end()) return std::nullopt;
  if (it->is_number_unsigned()) return it->get<std::uint64_t>();
  if (it->is_number_integer() && it->get<std::int64_t>() >= 0) {
    return static_cast<std::uint64_t>(it->get<std::int64_t>());
  }
  return std::nullopt;
}

std::string node_field_gap(const ReportIndex& reports, const char* field) {
  if (!reports.missing_nodes.empty()) {
    return "no 'node' report from " + list_labels(reports.missing_nodes) + " (" +
           std::to_string(reports.missing_nodes.size()) + " of " +
           std::to_string(reports.nodes.size()) + " ranks)";
  }
  std::vector<std::string> lacking;
  for (std::size_t rank = 0; rank < reports.nodes.size(); ++rank) {
    if (!get_count(*reports.nodes[rank], field)) {
      lacking.push_back(process_label(static_cast<Rank>(rank)));
    }
  }
  if (lacking.empty()) return {};
  return "the 'node' report of " + list_labels(lacking) + " has no non-negative integer '" + field +
         "'";
}

}  // namespace tsunagi::runner::detail
