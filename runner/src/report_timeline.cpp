// The report's timeline: one row per process, from trace.jsonl (the same kinds from every
// backend). A phase starts at a phase-starting decision (kPhases) and lasts until the next one
// or the end of the run; any other decision is a tick on the row.
#include <algorithm>
#include <array>
#include <cmath>

#include "report_parts.hpp"
#include "report_svg.hpp"

namespace tsunagi::runner::report {
namespace {

struct Phase {
  const char* kind;  // the decision that starts it
  const char* name;  // what the process does from then on
  const char* colour;
};

// In the order a run goes through them; the first row segment, before any of these, is
// "starting" (registering and, for ranks, probing RTTs).
constexpr std::array<Phase, 9> kPhases = {{
    {"directory", "probing (directory sent)", "#9ecae1"},
    {"rtt_view", "waiting for groups", "#c6dbef"},
    {"groups", "groups sent", "#a1d99b"},
    {"tree", "tree inferred", "#74c476"},
    {"plan", "connecting", "#fdd0a2"},
    {"relay_attached", "attached to a relay", "#bcbddc"},
    {"routes", "routed: workload", "#fdae6b"},
    {"all_settled", "overlay settled", "#d9f0a3"},
    {"shutdown", "shutting down", "#d9d9d9"},
}};
constexpr const char* kStartColour = "#f0f0f0";

const Phase* phase_of(const std::string& kind) {
  for (const Phase& phase : kPhases)
    if (kind == phase.kind) return &phase;
  return nullptr;
}

double run_end_ns(const RunFiles& run) {
  const auto* end = find_dotted(run.result, "simulated_end_s");
  const double simulated = end != nullptr && end->is_number() ? end->get<double>() * 1e9 : 0;
  return std::max(simulated, static_cast<double>(run.end_ns));
}

void axis(Svg& svg, double left, double width, double y, double end_ns) {
  svg.line(left, y, left + width, y, attr("stroke", "#444444"));
  for (int i = 0; i <= 5; ++i) {
    const double x = left + width * i / 5.0;
    svg.line(x, y, x, y + 4, attr("stroke", "#444444"));
    svg.text(x, y + 15, time_text(static_cast<std::int64_t>(end_ns * i / 5.0)),
             attr("text-anchor", "middle"));
  }
}

void legend(Svg& svg, double x, double y) {
  svg.raw("<g class=\"legend\">\n");
  svg.rect(x, y, 10, 10, attr("fill", kStartColour) + attr("stroke", "#999999"));
  svg.text(x + 14, y + 9, "starting / probing RTTs");
  for (std::size_t i = 0; i < kPhases.size(); ++i) {
    const double lx = x + 170.0 * static_cast<double>((i + 1) % 5);
    const double ly = y + 16.0 * static_cast<double>((i + 1) / 5);
    svg.rect(lx, ly, 10, 10, attr("fill", kPhases[i].colour) + attr("stroke", "#999999"));
    svg.text(lx + 14, ly + 9, kPhases[i].name);
  }
  svg.raw("</g>\n");
}

}  // namespace

std::string timeline_svg(const RunFiles& run) {
  const double left = 110;
  const double width = 820;
  const double rows = static_cast<double>(std::max<std::size_t>(run.trace.size(), 1));
  const double row = std::clamp(640.0 / rows, 3.0, 16.0);
  const double top = 50;
  const double end_ns = run_end_ns(run);
  const double height = top + row * rows + 30;
  Svg svg("timeline-svg", left + width + 20, height, "protocol phases per process over time");
  legend(svg, 10, 6);
  auto x_of = [&](double t) { return left + width * std::clamp(t / end_ns, 0.0, 1.0); };
  double y = top;
  for (const auto& [label, decisions] : run.trace) {
    svg.raw("<g" + attr("class", "process") + attr("data-proc", label) + ">\n");
    if (row >= 8) svg.text(left - 6, y + row * 0.75, label, attr("text-anchor", "end"));
    double start = 0;
    std::string name = "starting / probing RTTs";
    std::string colour = kStartColour;
    auto segment = [&](double until) {
      svg.raw("<rect class=\"phase\" x=\"" + num(x_of(start)) + "\" y=\"" + num(y) + "\" width=\"" +
              num(std::max(0.5, x_of(until) - x_of(start))) + "\" height=\"" + num(row * 0.85) +
              '"' + attr("fill", colour) + "><title>" +
              escape(label + ": " + name + " from " + time_text(static_cast<std::int64_t>(start)) +
                     " to " + time_text(static_cast<std::int64_t>(until))) +
              "</title></rect>\n");
    };
    for (const Decision& d : decisions) {
      const double t = static_cast<double>(d.t_ns);
      if (const Phase* phase = phase_of(d.kind)) {
        segment(t);
        start = t, name = phase->name, colour = phase->colour;
      } else {
        svg.raw("<line class=\"tick\" x1=\"" + num(x_of(t)) + "\" y1=\"" + num(y) + "\" x2=\"" +
                num(x_of(t)) + "\" y2=\"" + num(y + row * 0.85) +
                "\" stroke=\"#d62728\" stroke-width=\"1\"><title>" +
                escape(label + ": " + d.kind + " at " + time_text(d.t_ns)) + "</title></line>\n");
      }
    }
    segment(end_ns);
    svg.raw("</g>\n");
    y += row;
  }
  axis(svg, left, width, y + 2, end_ns);
  return svg.str();
}

}  // namespace tsunagi::runner::report
