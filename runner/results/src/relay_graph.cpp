// DIR/relays.dot: the relay overlay as the relays reported it at the end of the run — one box
// per site, one node per relay, one edge per live link — for Graphviz
// (`dot -Tsvg relays.dot -o relays.svg`).
#include <map>
#include <set>
#include <sstream>

#include "tsunagi/runner/results/output_files.hpp"

namespace tsunagi::runner {
namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

}  // namespace

bool write_relay_graph(const std::filesystem::path& file, const Recorder& recorder) {
  std::map<std::string, std::set<std::string>> relays_of_site;
  std::set<std::pair<std::string, std::string>> links;  // each once, smaller label first
  for (const ReportEntry& report : recorder.reports()) {
    if (report.key != "relay" || !report.value.is_object()) continue;
    const std::string self = report.value.value("relay", "");
    relays_of_site[report.value.value("site", "")].insert(self);
    for (const auto& peer : report.value.value("links", nlohmann::json::array()))
      if (peer.is_string()) links.insert(std::minmax(self, peer.get<std::string>()));
  }
  if (relays_of_site.empty()) return false;
  std::ostringstream out;
  out << "// tsunagi relay overlay; render: dot -Tsvg " << file.filename().string()
      << " -o relays.svg\n"
      << "graph relays {\n  layout = fdp; node [shape = box];\n";
  int index = 0;
  for (const auto& [site, relays] : relays_of_site) {
    out << "  subgraph cluster_" << index++ << " {\n    label = " << quoted(site) << ";\n";
    for (const std::string& relay : relays) out << "    " << quoted(relay) << ";\n";
    out << "  }\n";
  }
  for (const auto& [a, b] : links) out << "  " << quoted(a) << " -- " << quoted(b) << ";\n";
  out << "}\n";
  write_output_file(file, out.str());
  return true;
}

}  // namespace tsunagi::runner
