// DIR/report.html: the run's facts and pictures on one page that needs nothing else (no fonts,
// scripts or styles from the network), plus the pictures as files beside it (report.hpp).
#include <sstream>

#include "report_parts.hpp"
#include "report_svg.hpp"
#include "report_timeline.hpp"
#include "tsunagi/runner/report/report.hpp"
#include "tsunagi/runner/results/output_files.hpp"
#include "tsunagi/runner/results/verdicts.hpp"

namespace tsunagi::runner {
namespace {

using nlohmann::ordered_json;
using report::escape;

constexpr const char* kStyle = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1200px; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table.facts td { padding: 2px 10px 2px 0; vertical-align: top; }
table.facts td:first-child { color: #555; }
.bad { color: #c00000; font-weight: bold; } .good { color: #207020; font-weight: bold; }
.note { color: #666; font-size: 0.9em; }
figure { margin: 0.5em 0; overflow-x: auto; } svg { background: #fff; }
.hl rect, .hl circle { stroke: #000 !important; stroke-width: 3 !important; }
line.hl { stroke: #000 !important; stroke-width: 2.5 !important; }
.controls { margin: 0.3em 0; } .controls button { margin: 0 4px 4px 0; cursor: pointer; }
#timeline-svg svg.plot { cursor: grab; }
)";

// Hovering a rank (in any picture) highlights it everywhere and its overlay edges.
constexpr const char* kScript = R"(
(function () {
  function mark(rank, on) {
    document.querySelectorAll('[data-rank="' + rank + '"]').forEach(function (el) {
      el.classList.toggle('hl', on);
    });
    document.querySelectorAll('line[data-a="r' + rank + '"], line[data-b="r' + rank + '"]')
      .forEach(function (el) { el.classList.toggle('hl', on); });
  }
  document.querySelectorAll('[data-rank]').forEach(function (el) {
    el.addEventListener('mouseenter', function () { mark(el.dataset.rank, true); });
    el.addEventListener('mouseleave', function () { mark(el.dataset.rank, false); });
  });
  var summary = document.getElementById('dom-summary');
  summary.textContent = 'ranks drawn: ' + document.querySelectorAll('#topology-svg .rank').length +
    ', overlay edges: ' + document.querySelectorAll('#overlay-svg line').length +
    ', timeline rows: ' +
    document.querySelectorAll('#timeline-svg .process, #timeline-svg .group-row').length;
  document.body.dataset.ready = 'yes';
})();
)";

std::string text_at(const ordered_json& result, const std::string& key) {
  const ordered_json* value = find_dotted(result, key);
  if (value == nullptr || value->is_null()) return "?";
  return value->is_string() ? value->get<std::string>() : value->dump();
}

std::string verdict_html(const std::string& verdict) {
  const char* cls = verdict == "correct" ? "good" : verdict == "WRONG" ? "bad" : "note";
  return std::string("<span class=\"") + cls + "\">" + escape(verdict) + "</span>";
}

std::string facts_table(const ordered_json& r) {
  std::ostringstream html;
  auto row = [&](const std::string& name, const std::string& value_html) {
    html << "<tr><td>" << name << "</td><td>" << value_html << "</td></tr>\n";
  };
  html << "<table class=\"facts\">\n";
  row("scenario", escape(text_at(r, "scenario") + " (" + text_at(r, "scenario_path") + ")"));
  row("backend", escape(text_at(r, "backend") + ", seed " + text_at(r, "seed") + ", " +
                        text_at(r, "processes") + " processes"));
  row("switch groups", escape(text_at(r, "inference.groups_count") + " (" +
                              text_at(r, "inference.true_groups_count") + " true): ") +
                           verdict_html(groups_verdict(r)));
  if (const ordered_json* tree = find_dotted(r, "inference.tree_correct"))
    row("switch tree", tree->is_boolean() ? verdict_html(*tree == true ? "correct" : "WRONG")
                                          : escape(text_at(r, "inference.tree_correct")));
  row("connections", escape("per node max " + text_at(r, "connections.max_per_node") + ", mean " +
                            text_at(r, "connections.mean_per_node") + "; static " +
                            text_at(r, "connections.static") + ", shortcuts opened " +
                            text_at(r, "connections.shortcuts_opened") + ", evicted " +
                            text_at(r, "connections.shortcuts_evicted")));
  std::string messages = "sent " + text_at(r, "messages.sent") + ", delivered " +
                         text_at(r, "messages.delivered") + ", relayed by ranks " +
                         text_at(r, "messages.relayed");
  if (const ordered_json* carried = find_dotted(r, "relay.carried");
      carried != nullptr && carried->is_number())
    messages += "; relay daemons carried " + carried->dump() + " (" +
                text_at(r, "relay.forwarded") + " relay-to-relay hops)";
  row("messages", escape(messages));
  row("workload",
      escape(text_at(r, "workload.name") + ", verified " + text_at(r, "workload.verified") +
             ", makespan " + text_at(r, "workload.makespan_s") + " s"));
  row("result", r.value("ok", false) ? "<span class=\"good\">ok</span>"
                                     : "<span class=\"bad\">FAILED</span>");
  html << "</table>\n";
  return html.str();
}

struct Section {
  const char* id;
  const char* title;
  const char* caption;
  std::string svg;
  const char* missing;        // said instead when there is no picture
  std::string controls = {};  // HTML between the caption and the picture
};

}  // namespace

ReportOutput write_run_report(const std::filesystem::path& dir) {
  const report::RunFiles run = report::read_run_files(dir);
  ReportOutput output;
  report::TimelineFigure timeline = report::timeline_figure(run);
  std::vector<Section> sections = {
      {"topology", "True network and inferred groups",
       "Ranks (squares) hang off their true switch, router or cluster, filled with the colour of "
       "the group the rendezvous put them in. A red outline and x mark a rank whose inferred "
       "group is not exactly the ranks of its switch. Above a few hundred ranks each switch's "
       "ranks are one bar in the colour of their main inferred group, outlined red when any of "
       "them is in a wrong group (the tooltip counts them).",
       report::true_topology_svg(run),
       "topology.json is missing (runs before this version): rerun to draw the true network."},
      {"inferred", "What was inferred",
       "The inferred groups (G0, G1, ... with their sizes) and, if the run inferred one, the "
       "switch tree over them (S0, S1, ...).",
       report::inferred_topology_svg(run),
       "No groups were inferred from RTTs in this run (the plan needs none, or takes them from "
       "site labels)."},
      {"overlay", "Overlay",
       "The inferred groups as clusters (their colour as in the pictures above), each group's "
       "ranks on its own circle, relays (blue diamonds) beside the groups attached to them. "
       "Ranks with static connections to other groups are drawn larger (the groups' leaders "
       "or gateways). Grey: static connections of the plan; orange: shortcuts; red dashed: "
       "connects that failed; blue: links between relays; light blue dashed: ranks attached "
       "to their relay. Above a few hundred ranks each group is one disc and the lines join "
       "groups, as wide as the connections between them.",
       report::overlay_svg(run), ""},
      {"timeline", "Timeline of protocol phases",
       "From trace.jsonl (the same decisions from every backend), rows gathered by inferred "
       "group (the bar at the left, in the group's colour); above a few hundred ranks one row "
       "per group, whose phases begin when its median rank entered them (the tooltip gives "
       "the first and last). A phase begins at the decision that starts it; black ticks are "
       "other decisions, blue arrows the decisions about another rank (a shortcut opened, a "
       "connect that failed). Hover for names and times.",
       timeline.svg, "", timeline.controls},
      {"rtts", "Sorted RTTs of rank 0 (paper 000, Fig. 4)",
       "Rank 0's RTT to every peer, smallest first; green peers share rank 0's true switch. The "
       "jump is where inference cuts.",
       report::sorted_rtts_svg(run), "Rank 0 measured no RTTs in this run."},
      {"connections", "Connections per rank", "", report::connection_counts_svg(run), "No ranks."},
  };
  std::ostringstream html;
  const std::string title = "tsunagi report: " + text_at(run.result, "scenario") + " on " +
                            text_at(run.result, "backend");
  html << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>"
       << escape(title) << "</title>\n<style>" << kStyle << "</style></head>\n<body>\n<h1>"
       << escape(title) << "</h1>\n"
       << facts_table(run.result) << "<p class=\"note\" id=\"dom-summary\"></p>\n";
  for (const Section& section : sections) {
    html << "<section id=\"" << section.id << "\"><h2>" << section.title << "</h2>\n";
    if (section.svg.empty()) {
      html << "<p class=\"note missing\">" << escape(section.missing) << "</p>\n";
      if (*section.missing != '\0')
        output.notes.push_back(std::string(section.id) + ": " + section.missing);
    } else {
      html << "<p class=\"note\">" << escape(section.caption) << "</p>\n"
           << section.controls << "<figure>" << section.svg << "</figure>\n";
      const std::filesystem::path file = dir / (std::string(section.id) + ".svg");
      write_text_file(file, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n" + section.svg);
      output.files.push_back(file);
    }
    html << "</section>\n";
  }
  html << "<script>" << kScript << "</script>\n<script>" << report::timeline_script()
       << "</script>\n</body></html>\n";
  output.page = dir / "report.html";
  write_text_file(output.page, html.str());
  report::write_graphviz_files(run, output);
  return output;
}

}  // namespace tsunagi::runner
