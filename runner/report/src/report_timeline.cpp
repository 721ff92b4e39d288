// The report's timeline (report_rows.hpp has the rows): phases as coloured spans on a time axis
// that gives every phase a readable width (report_phases.hpp), other decisions as ticks, the
// decisions that name a peer as arrows between rows, workload messages (messages.csv) as
// slanted arrows from their departure to their arrival. Every mark carries its times (data-t0,
// data-t1, data-t) so that the page's script (report_timeline_script.cpp) can zoom, pan and
// switch to a linear axis; the figure is complete without it (timeline.svg beside the page).
#include <algorithm>
#include <cmath>
#include <map>

#include "report_parts.hpp"
#include "report_phases.hpp"
#include "report_rows.hpp"
#include "report_svg.hpp"
#include "report_timeline.hpp"
#include "tsunagi/runner/driver/message_tap.hpp"

namespace tsunagi::runner::report {
namespace {

constexpr double kLeft = 170;   // band labels, then row labels
constexpr double kWidth = 880;  // the plot
constexpr double kTop = 64;     // below the legend
// Dark: a message arrow crosses spans of every phase colour.
constexpr const char* kMessageColour = "#7a1f00";

struct Layout {
  double row = 16;    // row height
  double height = 0;  // of the plot
  PhaseAxis axis;
  double x(double t) const { return kWidth * axis.at(t); }
  double y(std::size_t row_index) const { return row * static_cast<double>(row_index); }
};

// The axis's boundaries: when each phase first began in any row.
PhaseAxis phase_axis(const Timeline& timeline) {
  std::map<int, std::int64_t> first;
  for (const Row& row : timeline.rows)
    for (const Span& span : row.spans)
      if (span.phase > 0 && (!first.contains(span.phase) || span.t0 < first[span.phase]))
        first[span.phase] = span.t0;
  std::vector<std::int64_t> starts;
  for (const auto& [phase, t] : first) starts.push_back(t);
  return PhaseAxis(std::move(starts), timeline.end_ns);
}

void legend(Svg& svg, bool messages) {
  svg.raw("<g class=\"legend\">\n");
  const auto all = phases();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const double x = 10 + 205.0 * static_cast<double>(i % 5);
    const double y = 6 + 16.0 * static_cast<double>(i / 5);
    svg.raw("<g class=\"legend-phase\">");
    svg.rect(x, y, 10, 10, attr("fill", all[i].colour) + attr("stroke", "#999999"));
    svg.text(x + 14, y + 9, all[i].name);
    svg.raw("</g>\n");
  }
  svg.line(10, 43, 10, 53, attr("stroke", "#222222") + attr("stroke-width", "1.5"));
  svg.text(24, 51, "other decision (shortcut, failed connect, ...)");
  svg.line(320, 48, 340, 48, attr("stroke", "#1f5fbf") + attr("stroke-width", "1.2"));
  svg.text(344, 51, "arrow: a decision about another rank (from its row to the other's)");
  if (messages) {
    svg.line(760, 44, 780, 52, attr("stroke", kMessageColour) + attr("stroke-width", "1"));
    svg.text(784, 51, "workload message (sent to arrived)");
  }
  svg.raw("</g>\n");
}

std::string span_title(const Row& row, const Span& span) {
  return row.label + ": " + phases()[static_cast<std::size_t>(span.phase)].name + " from " +
         time_text(span.t0) + " to " + time_text(span.t1) +
         (span.note.empty() ? "" : " (" + span.note + ")");
}

void draw_row(Svg& svg, const Row& row, double y, const Layout& at) {
  svg.raw("<g" +
          (row.proc.empty()
               ? attr("class", "group-row") + attr("data-ranks", std::to_string(row.members))
               : attr("class", "process") + attr("data-proc", row.proc)) +
          ">\n");
  const double h = at.row * 0.85;
  for (const Span& span : row.spans) {
    const double x0 = at.x(static_cast<double>(span.t0));
    const double x1 = at.x(static_cast<double>(span.t1));
    svg.raw("<rect class=\"phase\" data-t0=\"" + std::to_string(span.t0) + "\" data-t1=\"" +
            std::to_string(span.t1) + "\" x=\"" + num(x0) + "\" y=\"" + num(y) + "\" width=\"" +
            num(std::max(0.5, x1 - x0)) + "\" height=\"" + num(h) + '"' +
            attr("fill", phases()[static_cast<std::size_t>(span.phase)].colour) + "><title>" +
            escape(span_title(row, span)) + "</title></rect>\n");
  }
  for (const Tick& tick : row.ticks) {
    const double x = at.x(static_cast<double>(tick.t));
    svg.raw("<line class=\"tick\" data-t=\"" + std::to_string(tick.t) + "\" x1=\"" + num(x) +
            "\" y1=\"" + num(y) + "\" x2=\"" + num(x) + "\" y2=\"" + num(y + h) +
            "\" stroke=\"#222222\" stroke-width=\"1\"><title>" +
            escape(row.label + ": " + tick.kind + " at " + time_text(tick.t) +
                   (tick.note.empty() ? "" : " — " + tick.note)) +
            "</title></line>\n");
  }
  svg.raw("</g>\n");
}

// An arrow at time t from the middle of one row to the other, its head drawn as two strokes
// (no <marker>: its url() reference is what a self-contained page must not need).
std::string arrow_path(double x, double y1, double y2) {
  const double head = y2 > y1 ? -5 : 5;
  return "M" + num(x) + " " + num(y1) + "L" + num(x) + " " + num(y2) + "M" + num(x - 3) + " " +
         num(y2 + head) + "L" + num(x) + " " + num(y2) + "L" + num(x + 3) + " " + num(y2 + head);
}

void draw_arrows(Svg& svg, const Timeline& timeline, const Layout& at) {
  svg.raw("<g class=\"arrows\">\n");
  for (const Arrow& arrow : timeline.arrows) {
    const double y1 = at.y(arrow.from_row) + at.row * 0.42;
    const double y2 = at.y(arrow.to_row) + at.row * 0.42;
    svg.raw("<path class=\"arrow\" data-t=\"" + std::to_string(arrow.t) + "\" data-y1=\"" +
            num(y1) + "\" data-y2=\"" + num(y2) + "\" d=\"" +
            arrow_path(at.x(static_cast<double>(arrow.t)), y1, y2) +
            "\" fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"1.2\"><title>" +
            escape(arrow.note) + "</title></path>\n");
  }
  svg.raw("</g>\n");
}

// A line from (x1, y1) to (x2, y2) with a head at its end drawn as two strokes (the page's
// script draws the same, report_timeline_script.cpp).
std::string slanted_arrow_path(double x1, double y1, double x2, double y2) {
  const double length = std::max(std::hypot(x2 - x1, y2 - y1), 1e-9);
  const double ux = (x2 - x1) / length, uy = (y2 - y1) / length;
  return "M" + num(x1) + " " + num(y1) + "L" + num(x2) + " " + num(y2) + "M" +
         num(x2 - 5 * ux - 2.5 * uy) + " " + num(y2 - 5 * uy + 2.5 * ux) + "L" + num(x2) + " " +
         num(y2) + "L" + num(x2 - 5 * ux + 2.5 * uy) + " " + num(y2 - 5 * uy - 2.5 * ux);
}

void draw_messages(Svg& svg, const Timeline& timeline, const Layout& at) {
  if (timeline.messages.empty()) return;
  svg.raw("<g class=\"messages\">\n");
  for (const MessageArrow& m : timeline.messages) {
    const double y1 = at.y(m.from_row) + at.row * 0.42;
    const double y2 = at.y(m.to_row) + at.row * 0.42;
    svg.raw("<path class=\"message\"" + attr("data-sent", std::to_string(m.sent)) +
            attr("data-received", std::to_string(m.received)) + attr("data-y1", num(y1)) +
            attr("data-y2", num(y2)) +
            attr("d", slanted_arrow_path(at.x(static_cast<double>(m.sent)), y1,
                                         at.x(static_cast<double>(m.received)), y2)) +
            attr("fill", "none") + attr("stroke", kMessageColour) + attr("stroke-width", "1") +
            attr("stroke-opacity", "0.75") + "><title>" + escape(m.note) + "</title></path>\n");
  }
  svg.raw("</g>\n");
}

// Group bands at the far left (a bar in the group's colour, its name) and row labels.
void draw_labels(Svg& svg, const Timeline& timeline, const Layout& at) {
  double free_from = 0;  // a label is drawn only where the one above leaves room
  for (const Band& band : timeline.bands) {
    const double y = kTop + at.y(band.first_row);
    const double h = at.row * static_cast<double>(band.rows);
    const std::string fill = band.group >= 0 ? palette(static_cast<std::size_t>(band.group),
                                                       std::max<std::size_t>(timeline.groups, 1))
                                             : "#bbbbbb";
    svg.raw("<g" + attr("class", "band") + attr("data-group", std::to_string(band.group)) +
            "><title>" + escape(band.note) + "</title>\n");
    svg.rect(4, y, 6, std::max(1.0, h - 1), attr("fill", fill));
    if (y >= free_from) {
      svg.text(14, y + 9, band.label, attr("class", "band-label") + attr("font-size", "10"));
      free_from = y + 11;
    }
    svg.raw("</g>\n");
  }
  if (at.row < 7) return;
  for (std::size_t i = 0; i < timeline.rows.size(); ++i)
    if (!timeline.rows[i].proc.empty())
      svg.text(kLeft - 6, kTop + at.y(i) + at.row * 0.8, timeline.rows[i].label,
               attr("class", "row-label") + attr("text-anchor", "end") +
                   attr("font-size", num(std::min(11.0, at.row + 1))));
}

void draw_axis(Svg& svg, const Layout& at) {
  const double y = kTop + at.height + 2;
  svg.raw("<g class=\"axis\">\n");
  svg.line(kLeft, y, kLeft + kWidth, y, attr("stroke", "#444444"));
  for (int i = 0; i <= 6; ++i) {
    const double u = i / 6.0;
    const double x = kLeft + kWidth * u;
    svg.line(x, y, x, y + 4, attr("stroke", "#444444"));
    svg.text(x, y + 15, time_text(static_cast<std::int64_t>(at.axis.time_at(u))),
             attr("text-anchor", "middle"));
  }
  svg.raw("</g>\n");
}

// What the line under the timeline says of the workload messages.
std::string messages_note(const Timeline& timeline) {
  if (timeline.messages_recorded == 0) return "";
  if (timeline.per_group) return "; workload messages (messages.csv) not drawn on rows of groups";
  std::string note = "; workload messages: " + std::to_string(timeline.messages.size()) + " drawn";
  if (timeline.messages.size() < timeline.messages_recorded)
    note += ", " + std::to_string(timeline.messages_recorded - timeline.messages.size()) +
            " recorded without an arrival";
  if (timeline.messages_recorded >= kMessagesMax)
    note += " (the first " + std::to_string(kMessagesMax) + " sent: a run records no more)";
  return note;
}

}  // namespace

TimelineFigure timeline_figure(const RunFiles& run) {
  const Timeline timeline = build_timeline(run);
  const double rows = static_cast<double>(std::max<std::size_t>(timeline.rows.size(), 1));
  // Rows of groups stay tall enough to hover one by one.
  Layout at{std::clamp(900.0 / rows, timeline.per_group ? 6.0 : 3.0, 16.0), 0,
            phase_axis(timeline)};
  at.height = at.row * rows;
  const double height = kTop + at.height + 44;
  Svg svg("timeline-svg", kLeft + kWidth + 40, height, "protocol phases per process over time");
  svg.raw("<desc" + attr("class", "timeline-data") +
          attr("data-end", std::to_string(timeline.end_ns)) +
          attr("data-breaks", at.axis.breakpoints()) + attr("data-left", num(kLeft)) +
          attr("data-width", num(kWidth)) + "></desc>\n");
  legend(svg, !timeline.messages.empty());
  draw_labels(svg, timeline, at);
  svg.raw("<svg class=\"plot\" x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" +
          num(kWidth) + "\" height=\"" + num(at.height) + "\">\n<rect class=\"plot-bg\" x=\"0\" " +
          "y=\"0\" width=\"" + num(kWidth) + "\" height=\"" + num(at.height) +
          "\" fill=\"#ffffff\"/>\n");
  for (std::size_t i = 0; i < timeline.rows.size(); ++i)
    draw_row(svg, timeline.rows[i], at.y(i), at);
  draw_arrows(svg, timeline, at);
  draw_messages(svg, timeline, at);
  svg.raw("</svg>\n");
  draw_axis(svg, at);
  std::string note = timeline.per_group
                         ? "one row per group (" + std::to_string(timeline.rows.size()) +
                               " rows for " + std::to_string(process_count(run)) + " ranks)"
                         : "one row per process";
  if (timeline.arrows.size() < timeline.arrows_total)
    note += "; arrows: " + std::to_string(timeline.arrows.size()) + " of " +
            std::to_string(timeline.arrows_total) + " drawn, evenly spread";
  note += messages_note(timeline);
  svg.text(kLeft, height - 8, note, attr("class", "sampling"));
  return {svg.str(), timeline_controls(timeline, at.axis)};
}

}  // namespace tsunagi::runner::report
