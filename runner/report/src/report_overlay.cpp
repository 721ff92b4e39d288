// The report's picture of the overlay the run built, from the trace: static connections (each
// rank's `plan`), connects that failed, shortcuts (`shortcut_up`), relay links (each relay's
// last `relay_routes`) and ranks' attachments to relays (`relay_attached`). It is laid out by
// the groups the run inferred: each group a cluster (its ranks on a small circle), clusters on
// a grid in group order, so that the links between groups are what stands out. Above
// kRowsPerRankMax ranks each group is one disc and edges are summed per pair of groups.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

#include "report_parts.hpp"
#include "report_rows.hpp"
#include "report_svg.hpp"

namespace tsunagi::runner::report {
namespace {

using Pair = std::pair<std::string, std::string>;

struct Overlay {
  std::set<Pair> statics, failed, shortcuts, relay_links, attachments;
  std::vector<std::string> ranks;   // labels in rank order
  std::vector<std::string> relays;  // labels of relays that traced anything
};

Pair pair_of(const std::string& a, const std::string& b) {
  return std::minmax(a, b);
}

std::string peer_label(const nlohmann::json& detail) {
  const auto it = detail.find("peer");
  return it != detail.end() && it->is_number_integer() ? "r" + it->dump() : "";
}

Overlay overlay_of(const RunFiles& run) {
  Overlay overlay;
  for (int r = 0; r < process_count(run); ++r) overlay.ranks.push_back("r" + std::to_string(r));
  for (const auto& [label, decisions] : run.trace) {
    const bool is_rank = rank_of(label) >= 0;
    std::set<Pair> last_links;
    bool relay_traced = false;
    for (const Decision& d : decisions) {
      if (d.kind == "plan" && d.detail.contains("neighbors")) {
        for (const auto& peer : d.detail["neighbors"])
          if (peer.is_number_integer()) overlay.statics.insert(pair_of(label, "r" + peer.dump()));
      } else if (d.kind == "connect_failed" && is_rank && !peer_label(d.detail).empty()) {
        overlay.failed.insert(pair_of(label, peer_label(d.detail)));
      } else if (d.kind == "shortcut_up" && !peer_label(d.detail).empty()) {
        overlay.shortcuts.insert(pair_of(label, peer_label(d.detail)));
      } else if (d.kind == "relay_attached" && d.detail.value("relay", "") != "") {
        overlay.attachments.insert({label, d.detail.value("relay", "")});
      } else if (d.kind == "relay_routes" && d.detail.contains("links")) {
        relay_traced = true;
        last_links.clear();
        for (const auto& peer : d.detail["links"])
          if (peer.is_string()) last_links.insert(pair_of(label, peer.get<std::string>()));
      }
    }
    if (relay_traced) overlay.relays.push_back(label);
    overlay.relay_links.insert(last_links.begin(), last_links.end());
  }
  return overlay;
}

struct Point {
  double x = 0, y = 0;
};

// Where everything goes: a cluster per group (ranks in no group form the last one).
struct Layout {
  bool per_group = false;  // one disc per group
  double rank_radius = 7;
  double size = 640;  // width; height below
  double height = 640;
  std::vector<int> group_of;         // rank -> cluster index
  std::vector<Point> centre;         // per cluster
  std::vector<double> radius;        // per cluster
  std::vector<std::size_t> members;  // per cluster
  std::map<std::string, Point> at;   // ranks (unless per_group) and relays
  std::size_t groups = 0;            // inferred groups (clusters may add "no group")
};

// Each rank's cluster: its inferred group, or the extra cluster of ranks in none.
void assign_clusters(const RunFiles& run, Layout& layout) {
  layout.group_of = inferred_group_of_rank(run);
  int groups = 0;
  for (int g : layout.group_of) groups = std::max(groups, g + 1);
  layout.groups = static_cast<std::size_t>(groups);
  bool ungrouped = false;
  for (int& g : layout.group_of)
    if (g < 0) g = groups, ungrouped = true;
  layout.members.assign(static_cast<std::size_t>(groups + (ungrouped ? 1 : 0)), 0);
  for (int g : layout.group_of) ++layout.members[static_cast<std::size_t>(g)];
}

// A cluster's radius: room for its ranks on the circle; a disc (one per group) has an area
// in proportion to its ranks, the largest filling its cell.
double cluster_radius(const Layout& layout, double count, double largest, double cell) {
  if (layout.per_group) return std::max(4.0, (cell / 2 - 6) * std::sqrt(count / largest));
  return std::max(count > 1 ? 36.0 : 0.0,
                  count * (2 * layout.rank_radius + 5) / (2 * std::numbers::pi));
}

// Clusters on a grid, row by row in group order; the cell fits the largest (discs share
// about 640 points of width).
void place_clusters(Layout& layout) {
  const std::size_t n = layout.members.size();
  const auto cols = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n)))));
  double largest = 1;
  for (std::size_t m : layout.members) largest = std::max(largest, static_cast<double>(m));
  double cell = std::max(24.0, 640.0 / static_cast<double>(cols));
  if (!layout.per_group)
    cell = 2 * cluster_radius(layout, largest, largest, 0) + 2 * layout.rank_radius + 56;
  for (std::size_t m : layout.members)
    layout.radius.push_back(cluster_radius(layout, static_cast<double>(m), largest, cell));
  const std::size_t rows = (n + cols - 1) / cols;
  layout.size = std::max(400.0, static_cast<double>(cols) * cell + 20);
  layout.height = static_cast<double>(rows) * cell + 60;  // + a row of unattached relays
  for (std::size_t i = 0; i < n; ++i)
    layout.centre.push_back({10 + cell * (static_cast<double>(i % cols) + 0.5),
                             10 + cell * (static_cast<double>(i / cols) + 0.5)});
}

// Each group's ranks on its cluster's circle, in rank order, starting at the top.
void place_ranks(const Overlay& overlay, Layout& layout) {
  std::vector<std::size_t> seen(layout.members.size(), 0);
  for (std::size_t r = 0; r < overlay.ranks.size() && r < layout.group_of.size(); ++r) {
    const auto c = static_cast<std::size_t>(layout.group_of[r]);
    const double angle = 2 * std::numbers::pi * static_cast<double>(seen[c]++) /
                             static_cast<double>(layout.members[c]) -
                         std::numbers::pi / 2;
    layout.at[overlay.ranks[r]] = {layout.centre[c].x + layout.radius[c] * std::cos(angle),
                                   layout.centre[c].y + layout.radius[c] * std::sin(angle)};
  }
}

// A relay beside the ranks attached to it (their mean position), else in a row at the bottom.
void place_relays(const Overlay& overlay, Layout& layout) {
  std::map<std::string, std::pair<Point, int>> pull;
  for (const auto& [rank, relay] : overlay.attachments) {
    const int r = rank_of(rank);
    if (r < 0 || static_cast<std::size_t>(r) >= layout.group_of.size()) continue;
    const Point c =
        layout.centre[static_cast<std::size_t>(layout.group_of[static_cast<std::size_t>(r)])];
    pull[relay].first.x += c.x;
    pull[relay].first.y += c.y;
    ++pull[relay].second;
  }
  double free_x = 20;
  for (const std::string& relay : overlay.relays) {
    const auto it = pull.find(relay);
    if (it != pull.end()) {
      const double n = it->second.second;
      layout.at[relay] = {it->second.first.x / n + 12, it->second.first.y / n - 12};
    } else {
      layout.at[relay] = {free_x, layout.height - 20};
      free_x += 24;
    }
  }
}

Layout layout_of(const RunFiles& run, const Overlay& overlay) {
  Layout layout;
  layout.per_group = process_count(run) > kRowsPerRankMax;
  layout.rank_radius = overlay.ranks.size() <= 64 ? 7 : 3.5;
  assign_clusters(run, layout);
  place_clusters(layout);
  if (!layout.per_group) place_ranks(overlay, layout);
  place_relays(overlay, layout);
  return layout;
}

// The cluster of a rank label, or -1 for relays and the rendezvous.
int cluster_of(const Layout& layout, const std::string& label) {
  const int r = rank_of(label);
  return r >= 0 && static_cast<std::size_t>(r) < layout.group_of.size()
             ? layout.group_of[static_cast<std::size_t>(r)]
             : -1;
}

// Where an edge's end is drawn: the rank itself, or its group's disc.
const Point* end_of(const Layout& layout, const std::string& label) {
  const int c = cluster_of(layout, label);
  if (layout.per_group && c >= 0) return &layout.centre[static_cast<std::size_t>(c)];
  const auto it = layout.at.find(label);
  return it == layout.at.end() ? nullptr : &it->second;
}

// Above this many pairs of groups one line each (with its tooltip) is most of the page and of
// the browser's work (switched-10k's full mesh of 250 groups: 31,125 lines, 4.7 of 5.3 MB):
// they are folded into one path per line width, and one tooltip says what they are.
constexpr std::size_t kTitledGroupPairsMax = 2000;

using GroupPairCounts = std::map<std::pair<std::string, std::string>, int>;

// Connections of `edges` summed per pair of ends (two groups, or a group and a relay); none
// inside a group.
GroupPairCounts count_group_pairs(const Layout& layout, const std::set<Pair>& edges) {
  GroupPairCounts counts;
  auto end_name = [&](const std::string& label) {
    const int c = cluster_of(layout, label);
    return c >= 0 ? "G" + std::to_string(c) : label;
  };
  for (const auto& [a, b] : edges)
    if (end_name(a) != end_name(b)) ++counts[std::minmax(end_name(a), end_name(b))];
  return counts;
}

const Point* group_end(const Layout& layout, const std::string& name) {
  if (name.starts_with("G") && name.size() > 1 && std::isdigit(static_cast<unsigned char>(name[1])))
    return &layout.centre[std::stoul(name.substr(1))];
  const auto it = layout.at.find(name);
  return it == layout.at.end() ? nullptr : &it->second;
}

std::string pair_width(int n) {
  return num(std::min(6.0, 0.6 + std::log2(1.0 + n)));
}

void draw_group_pairs(Svg& svg, const Layout& layout, const GroupPairCounts& counts,
                      const std::string& cls, const std::string& style) {
  const std::string what = cls.substr(5);
  if (counts.size() <= kTitledGroupPairsMax) {
    for (const auto& [ends, n] : counts) {
      const Point* pa = group_end(layout, ends.first);
      const Point* pb = group_end(layout, ends.second);
      if (pa == nullptr || pb == nullptr) continue;
      svg.raw("<line x1=\"" + num(pa->x) + "\" y1=\"" + num(pa->y) + "\" x2=\"" + num(pb->x) +
              "\" y2=\"" + num(pb->y) + '"' + attr("data-a", ends.first) +
              attr("data-b", ends.second) + style + attr("stroke-width", pair_width(n)) +
              "><title>" +
              escape(ends.first + " - " + ends.second + ": " + std::to_string(n) + " " + what) +
              "</title></line>\n");
    }
    return;
  }
  // Thin and translucent: thousands of group pairs at the titled lines' widths cover the whole
  // picture in one grey (a full mesh of groups fills the hull of their discs).
  std::map<std::string, std::string> path_by_width;
  for (const auto& [ends, n] : counts) {
    const Point* pa = group_end(layout, ends.first);
    const Point* pb = group_end(layout, ends.second);
    if (pa == nullptr || pb == nullptr) continue;
    path_by_width[num(0.1 * std::stod(pair_width(n)))] +=
        "M" + num(pa->x) + " " + num(pa->y) + "L" + num(pb->x) + " " + num(pb->y);
  }
  for (const auto& [width, d] : path_by_width)
    svg.raw("<path" + attr("d", d) + " fill=\"none\" stroke-opacity=\"0.35\"" + style +
            attr("stroke-width", width) + attr("data-pairs", std::to_string(counts.size())) +
            "><title>" +
            escape(std::to_string(counts.size()) + " pairs of groups joined by " + what +
                   " connections") +
            "</title></path>\n");
}

void draw_edges(Svg& svg, const Layout& layout, const std::set<Pair>& edges, const std::string& cls,
                const std::string& style) {
  svg.raw("<g" + attr("class", cls) + ">\n");
  if (!layout.per_group) {
    for (const auto& [a, b] : edges) {
      const Point* pa = end_of(layout, a);
      const Point* pb = end_of(layout, b);
      if (pa != nullptr && pb != nullptr)
        svg.line(pa->x, pa->y, pb->x, pb->y, attr("data-a", a) + attr("data-b", b) + style);
    }
  } else {
    draw_group_pairs(svg, layout, count_group_pairs(layout, edges), cls, style);
  }
  svg.raw("</g>\n");
}

// Ranks with a static connection outside their group: the groups' leaders or gateways.
std::set<std::string> gateways(const Overlay& overlay, const Layout& layout) {
  std::set<std::string> out;
  for (const auto& [a, b] : overlay.statics) {
    const int ca = cluster_of(layout, a);
    const int cb = cluster_of(layout, b);
    if (ca >= 0 && cb >= 0 && ca != cb) out.insert({a, b});
  }
  return out;
}

std::string cluster_fill(const Layout& layout, std::size_t c) {
  return c < layout.groups ? palette(c, layout.groups) : "#cccccc";
}

void draw_clusters(Svg& svg, const Layout& layout) {
  for (std::size_t c = 0; c < layout.centre.size(); ++c) {
    const std::string name = c < layout.groups ? "G" + std::to_string(c) : "no group";
    svg.raw("<g" + attr("class", "cluster") + attr("data-group", std::to_string(c)) + "><title>" +
            escape(name + ": " + std::to_string(layout.members[c]) + " ranks") + "</title>\n");
    const double r = layout.radius[c] + (layout.per_group ? 0 : layout.rank_radius + 3);
    svg.circle(layout.centre[c].x, layout.centre[c].y, std::max(r, 6.0),
               attr("fill", cluster_fill(layout, c)) +
                   attr("fill-opacity", layout.per_group ? "0.85" : "0.18") +
                   attr("stroke", "#555555") + attr("stroke-width", "0.6"));
    if (layout.per_group || layout.members[c] > 1)
      svg.text(layout.centre[c].x, layout.centre[c].y + 4, name,
               attr("text-anchor", "middle") + attr("font-size", layout.per_group ? "8" : "10"));
    svg.raw("</g>\n");
  }
}

void draw_ranks(Svg& svg, const Overlay& overlay, const Layout& layout) {
  const std::set<std::string> leaders = gateways(overlay, layout);
  const bool numbered = overlay.ranks.size() <= 64;
  for (const std::string& rank : overlay.ranks) {
    const auto it = layout.at.find(rank);
    if (it == layout.at.end()) continue;
    const bool leader = leaders.contains(rank);
    const auto c = static_cast<std::size_t>(cluster_of(layout, rank));
    svg.raw("<g" + attr("class", leader ? "rank leader" : "rank") +
            attr("data-rank", rank.substr(1)) + "><title>" +
            escape(rank + (leader ? ", static connections to other groups" : "")) + "</title>\n");
    svg.circle(it->second.x, it->second.y, layout.rank_radius * (leader ? 1.3 : 1),
               attr("fill", leader ? cluster_fill(layout, c) : "#ffffff") +
                   attr("stroke", "#222222") + attr("stroke-width", leader ? "1.6" : "1"));
    if (numbered)
      svg.text(it->second.x, it->second.y + 3, rank.substr(1),
               attr("text-anchor", "middle") + attr("font-size", "8"));
    svg.raw("</g>\n");
  }
}

void draw_relays(Svg& svg, const Overlay& overlay, const Layout& layout) {
  for (const std::string& relay : overlay.relays) {
    const Point& p = layout.at.at(relay);
    svg.raw("<g class=\"relay\"><title>relay " + escape(relay) + "</title>\n");
    svg.rect(p.x - 5, p.y - 5, 10, 10,
             attr("fill", "#1f5fbf") +
                 attr("transform", "rotate(45 " + num(p.x) + " " + num(p.y) + ")"));
    svg.raw("</g>\n");
  }
}

}  // namespace

std::string overlay_svg(const RunFiles& run) {
  const Overlay overlay = overlay_of(run);
  const Layout layout = layout_of(run, overlay);
  Svg svg("overlay-svg", layout.size, layout.height,
          "overlay by inferred group: static connections, shortcuts, relays");
  draw_clusters(svg, layout);
  draw_edges(svg, layout, overlay.statics, "edge static",
             attr("stroke", "#777777") + (layout.per_group ? "" : attr("stroke-width", "0.7")));
  draw_edges(svg, layout, overlay.failed, "edge failed",
             attr("stroke", "#d00000") + attr("stroke-dasharray", "3 2"));
  draw_edges(svg, layout, overlay.shortcuts, "edge shortcut",
             attr("stroke", "#e07000") + (layout.per_group ? "" : attr("stroke-width", "1.5")));
  draw_edges(svg, layout, overlay.attachments, "edge attach",
             attr("stroke", "#6fa8ff") + attr("stroke-dasharray", "2 2"));
  draw_edges(svg, layout, overlay.relay_links, "edge relay",
             attr("stroke", "#1f5fbf") + (layout.per_group ? "" : attr("stroke-width", "2")));
  if (!layout.per_group) draw_ranks(svg, overlay, layout);
  draw_relays(svg, overlay, layout);
  return svg.str();
}

std::string overlay_dot(const RunFiles& run) {
  const Overlay overlay = overlay_of(run);
  const Layout layout = layout_of(run, overlay);
  std::ostringstream dot;
  dot << "// tsunagi: the overlay of " << run.result.value("scenario", "a run")
      << " by inferred group; grey static, orange shortcut, red dashed failed connect, blue "
         "relay link\n"
      << "// render (positions fixed): neato -n -Tsvg overlay.dot -o overlay.svg\n"
      << "graph overlay {\n  node [shape = circle, fontname = \"sans-serif\", fontsize = 8, "
         "width = 0.25, margin = 0.02];\n";
  // Points to inches: neato -n reads positions in points, y upwards.
  auto position = [&](const Point& p) { return "pos = \"" + num(p.x) + ',' + num(-p.y) + '"'; };
  std::set<std::string> nodes;
  if (layout.per_group) {
    for (std::size_t c = 0; c < layout.centre.size(); ++c) {
      const std::string name = "G" + std::to_string(c);
      nodes.insert(name);
      dot << "  " << dot_quoted(name) << " [" << position(layout.centre[c])
          << ", label = " << dot_quoted(name + " (" + std::to_string(layout.members[c]) + ")")
          << "];\n";
    }
  }
  for (const auto& [label, p] : layout.at) {
    nodes.insert(label);
    dot << "  " << dot_quoted(label) << " [" << position(p)
        << (rank_of(label) < 0 ? ", shape = diamond, style = filled, fillcolor = \"#9fc0ff\"" : "")
        << "];\n";
  }
  auto name_of = [&](const std::string& label) {
    const int c = cluster_of(layout, label);
    return layout.per_group && c >= 0 ? "G" + std::to_string(c) : label;
  };
  auto edges = [&](const std::set<Pair>& set, const char* style) {
    std::set<Pair> drawn;
    for (const auto& [a, b] : set) {
      const Pair ends = std::minmax(name_of(a), name_of(b));
      if (ends.first != ends.second && nodes.contains(ends.first) && nodes.contains(ends.second) &&
          drawn.insert(ends).second)
        dot << "  " << dot_quoted(ends.first) << " -- " << dot_quoted(ends.second) << " [" << style
            << "];\n";
    }
  };
  edges(overlay.statics, "color = gray50");
  edges(overlay.failed, "color = red, style = dashed");
  edges(overlay.shortcuts, "color = darkorange, penwidth = 2");
  edges(overlay.attachments, "color = steelblue, style = dotted");
  edges(overlay.relay_links, "color = blue, penwidth = 2");
  dot << "}\n";
  return dot.str();
}

}  // namespace tsunagi::runner::report
