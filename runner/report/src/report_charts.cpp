// The report's two charts: rank 0's sorted RTTs (paper 000, Fig. 4: the jump where the peers
// behind another switch begin) and the connections of each rank.
#include <algorithm>
#include <map>

#include "report_parts.hpp"
#include "report_rows.hpp"
#include "report_svg.hpp"
#include "report_tree.hpp"

namespace tsunagi::runner::report {

std::string sorted_rtts_svg(const RunFiles& run) {
  const auto* row = find_dotted(run.result, "reports.rtt_row.sorted_peer_rtt_ns");
  if (row == nullptr || !row->is_array() || row->empty()) return "";
  const DrawnTree tree = true_tree(run);
  const auto& switch_of = tree.true_switch_of_rank;
  const double left = 70, top = 20, width = 640, height = 260;
  double max_rtt = 1;
  for (const auto& pair : *row)
    if (pair.is_array() && pair.size() == 2 && pair[1].is_number())
      max_rtt = std::max(max_rtt, pair[1].get<double>());
  Svg svg("rtts-svg", left + width + 20, top + height + 40,
          "rank 0's RTT to every peer, sorted (paper 000 Fig. 4)");
  svg.line(left, top + height, left + width, top + height, attr("stroke", "#444444"));
  svg.line(left, top, left, top + height, attr("stroke", "#444444"));
  for (int i = 0; i <= 4; ++i) {
    const double y = top + height - height * i / 4.0;
    svg.text(left - 4, y + 4, time_text(static_cast<std::int64_t>(max_rtt * i / 4.0)),
             attr("text-anchor", "end"));
  }
  svg.text(left + width / 2, top + height + 30, "peers of rank 0, by increasing RTT",
           attr("text-anchor", "middle"));
  const double n = static_cast<double>(row->size());
  const double step = width / n;
  double x = left + step / 2;
  for (const auto& pair : *row) {
    if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_integer() ||
        !pair[1].is_number())
      continue;
    const auto peer = pair[0].get<std::size_t>();
    const bool same_switch =
        !switch_of.empty() && peer < switch_of.size() && switch_of[peer] == switch_of[0];
    const double y = top + height - height * pair[1].get<double>() / max_rtt;
    svg.raw("<g class=\"rtt\"><title>" +
            escape("r" + std::to_string(peer) + ": " + time_text(pair[1].get<std::int64_t>()) +
                   (same_switch ? " (same switch as r0)" : "")) +
            "</title>\n");
    svg.circle(x, y, std::clamp(step / 3, 1.5, 4.0),
               attr("fill", same_switch ? "#2ca02c" : "#1f77b4"));
    svg.raw("</g>\n");
    x += step;
  }
  return svg.str();
}

namespace {

// Static connections and shortcuts of each rank, from its `plan` and `shortcut_up` decisions.
std::pair<std::vector<int>, std::vector<int>> connections_of(const RunFiles& run, int n) {
  std::vector<int> statics(static_cast<std::size_t>(n), 0);
  std::vector<int> shortcuts(static_cast<std::size_t>(n), 0);
  for (const auto& [label, decisions] : run.trace) {
    const int rank = rank_of(label);
    if (rank < 0 || rank >= n) continue;
    for (const Decision& d : decisions) {
      if (d.kind == "plan" && d.detail.contains("neighbors") && d.detail["neighbors"].is_array())
        statics[static_cast<std::size_t>(rank)] = static_cast<int>(d.detail["neighbors"].size());
      if (d.kind == "shortcut_up") ++shortcuts[static_cast<std::size_t>(rank)];
    }
  }
  return {statics, shortcuts};
}

struct Bar {
  std::string label;  // "r12", or "G3" for a group's mean
  std::string rank;   // data-rank, "" for a group
  double statics = 0, shortcuts = 0;
  std::string note;
};

// One bar per rank; above kRowsPerRankMax ranks one per group (or block of ranks), the
// group's mean, with its least and most in the tooltip.
std::vector<Bar> connection_bars(const RunFiles& run, int n) {
  const auto [statics, shortcuts] = connections_of(run, n);
  std::vector<Bar> bars;
  if (n <= kRowsPerRankMax) {
    for (int r = 0; r < n; ++r) {
      const double s = statics[static_cast<std::size_t>(r)];
      const double c = shortcuts[static_cast<std::size_t>(r)];
      bars.push_back(
          {"r" + std::to_string(r), std::to_string(r), s, c,
           "r" + std::to_string(r) + ": " + num(s) + " static, " + num(c) + " shortcuts"});
    }
    return bars;
  }
  std::vector<int> set_of = inferred_group_of_rank(run);
  const bool grouped = std::any_of(set_of.begin(), set_of.end(), [](int g) { return g >= 0; });
  for (int r = 0; r < n; ++r)
    if (!grouped || set_of[static_cast<std::size_t>(r)] < 0)
      set_of[static_cast<std::size_t>(r)] = grouped ? -1 : r / kBlockRanks;
  std::map<int, std::vector<int>> members;
  for (int r = 0; r < n; ++r) members[set_of[static_cast<std::size_t>(r)]].push_back(r);
  for (const auto& [set, ranks] : members) {
    double s = 0, c = 0;
    int least = 1 << 30, most = 0;
    for (int r : ranks) {
      const int total =
          statics[static_cast<std::size_t>(r)] + shortcuts[static_cast<std::size_t>(r)];
      s += statics[static_cast<std::size_t>(r)], c += shortcuts[static_cast<std::size_t>(r)];
      least = std::min(least, total), most = std::max(most, total);
    }
    const double k = static_cast<double>(ranks.size());
    const std::string name =
        !grouped  ? "r" + std::to_string(ranks.front()) + "-" + std::to_string(ranks.back())
        : set < 0 ? "no group"
                  : "G" + std::to_string(set);
    bars.push_back({name, "", s / k, c / k,
                    name + ": " + std::to_string(ranks.size()) + " ranks, per rank " + num(s / k) +
                        " static and " + num(c / k) + " shortcuts on average; least " +
                        std::to_string(least) + ", most " + std::to_string(most)});
  }
  return bars;
}

}  // namespace

std::string connection_counts_svg(const RunFiles& run) {
  const int n = process_count(run);
  if (n <= 0) return "";
  const std::vector<Bar> bars = connection_bars(run, n);
  double most = 1;
  for (const Bar& bar : bars) most = std::max(most, bar.statics + bar.shortcuts);
  const double left = 50, top = 24, width = 840, height = 180;
  const double step = width / static_cast<double>(bars.size());
  Svg svg("connections-svg", left + width + 20, top + height + 30,
          "static connections (grey) and shortcuts opened (orange) per rank");
  svg.text(left, 14,
           bars.size() < static_cast<std::size_t>(n)
               ? "per rank, mean over each group: grey static connections of the plan, orange "
                 "shortcuts opened or accepted"
               : "grey: static connections of the plan; orange: shortcuts opened or accepted");
  svg.line(left, top + height, left + width, top + height, attr("stroke", "#444444"));
  svg.text(left - 4, top + 8, num(most), attr("text-anchor", "end"));
  svg.text(left - 4, top + height, "0", attr("text-anchor", "end"));
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& bar = bars[i];
    const double x = left + step * static_cast<double>(i);
    const double hs = height * bar.statics / most;
    const double hc = height * bar.shortcuts / most;
    svg.raw("<g" + attr("class", "count") +
            (bar.rank.empty() ? attr("data-set", bar.label) : attr("data-rank", bar.rank)) +
            "><title>" + escape(bar.note) + "</title>\n");
    svg.rect(x, top + height - hs, std::max(0.8, step - 1), hs, attr("fill", "#999999"));
    svg.rect(x, top + height - hs - hc, std::max(0.8, step - 1), hc, attr("fill", "#e07000"));
    svg.raw("</g>\n");
  }
  svg.text(left + width / 2, top + height + 22,
           bars.size() < static_cast<std::size_t>(n)
               ? std::to_string(bars.size()) + " groups of " + std::to_string(n) + " ranks, " +
                     bars.front().label + " .. " + bars.back().label
               : "ranks 0 .. " + std::to_string(n - 1),
           attr("text-anchor", "middle"));
  return svg.str();
}

}  // namespace tsunagi::runner::report
