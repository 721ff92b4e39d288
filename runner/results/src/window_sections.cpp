// result.json "windows" (the socket buffers all data connections hold, issue 15) and
// "indices" (paper 004's link indices, from rank 0's report), and indices.csv beside it.
#include <iomanip>
#include <sstream>

#include "result_sections.hpp"
#include "tsunagi/runner/results/output_files.hpp"

namespace tsunagi::runner::detail {

using nlohmann::ordered_json;

// Sums of the nodes' window fields; null when no node reported them.
ordered_json windows_section(const ReportIndex& reports) {
  ordered_json section = ordered_json::object();
  std::uint64_t held = 0, peak_sum = 0, peak_max = 0;
  std::string mode;
  int reported = 0;
  for (const nlohmann::json* node : reports.nodes) {
    if (node == nullptr) continue;
    const auto now = get_count(*node, "window_bytes_held");
    const auto peak = get_count(*node, "max_window_bytes_held");
    if (!now || !peak) continue;
    ++reported;
    held += *now;
    peak_sum += *peak;
    peak_max = std::max(peak_max, *peak);
    if (const auto it = node->find("window_mode"); it != node->end() && it->is_string())
      mode = it->get<std::string>();
  }
  if (reported == 0) return nullptr;
  section["mode"] = mode;
  // What the core set; "default" leaves every buffer to the host stack and counts nothing.
  section["buffer_bytes_held"] = held;
  section["buffer_bytes_peak_sum"] = peak_sum;
  section["buffer_bytes_max_per_node"] = peak_max;
  section["nodes_reported"] = reported;
  return section;
}

ordered_json indices_section(const Recorder& recorder) {
  const nlohmann::json* found = nullptr;
  for (const ReportEntry& report : recorder.reports())
    if (report.key == "indices") found = &report.value;
  if (found == nullptr) return nullptr;
  return ordered_json::parse(found->dump());
}

}  // namespace tsunagi::runner::detail

namespace tsunagi::runner {

namespace {

std::string cell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "";
  if (!value.is_number()) return value.dump();
  std::ostringstream out;
  out << std::setprecision(6) << value.get<double>();
  return out.str();
}

}  // namespace

bool write_indices_csv(const std::filesystem::path& file, const nlohmann::ordered_json& result) {
  const auto it = result.find("indices");
  if (it == result.end() || !it->is_object() || !it->contains("pairs")) return false;
  std::ostringstream out;
  out << "from,to,TCP,OH_64B,OH_64KB,BW_64KB,BW_8MB,MBps_8MB,tcp_bytes_per_second,BW_train,"
         "train_bytes_per_second\n";
  for (const auto& pair : it->at("pairs")) {
    out << cell(pair.value("from", nlohmann::ordered_json())) << ','
        << cell(pair.value("to", nlohmann::ordered_json()));
    for (const char* key : {"TCP", "OH_64B", "OH_64KB", "BW_64KB", "BW_8MB", "MBps_8MB",
                            "tcp_bytes_per_second", "BW_train", "train_bytes_per_second"})
      out << ',' << cell(pair.value(key, nlohmann::ordered_json()));
    out << '\n';
  }
  write_output_file(file, out.str());
  return true;
}

}  // namespace tsunagi::runner
