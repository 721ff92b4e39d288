// The report's picture of the overlay the run built, from the trace: static connections (each
// rank's `plan`), connects that failed, shortcuts (`shortcut_up`), relay links (each relay's
// last `relay_routes`) and ranks' attachments to relays (`relay_attached`).
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

#include "report_parts.hpp"
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

using Positions = std::map<std::string, std::pair<double, double>>;

// Ranks on a circle in rank order (so ranks of one switch sit together); each relay inside,
// towards the ranks attached to it.
Positions positions(const Overlay& overlay, double centre, double radius) {
  Positions at;
  const double n = static_cast<double>(std::max<std::size_t>(overlay.ranks.size(), 1));
  std::map<std::string, std::pair<double, double>> pull;  // relay -> summed unit vectors
  for (std::size_t i = 0; i < overlay.ranks.size(); ++i) {
    const double angle = 2 * std::numbers::pi * static_cast<double>(i) / n - std::numbers::pi / 2;
    at[overlay.ranks[i]] = {centre + radius * std::cos(angle), centre + radius * std::sin(angle)};
  }
  for (const auto& [rank, relay] : overlay.attachments) {
    const auto it = at.find(rank);
    if (it == at.end()) continue;
    pull[relay].first += it->second.first - centre;
    pull[relay].second += it->second.second - centre;
  }
  for (std::size_t i = 0; i < overlay.relays.size(); ++i) {
    const std::string& relay = overlay.relays[i];
    double angle =
        2 * std::numbers::pi * static_cast<double>(i) / static_cast<double>(overlay.relays.size());
    const auto it = pull.find(relay);
    if (it != pull.end() && (it->second.first != 0 || it->second.second != 0))
      angle = std::atan2(it->second.second, it->second.first);
    at[relay] = {centre + 0.6 * radius * std::cos(angle), centre + 0.6 * radius * std::sin(angle)};
  }
  return at;
}

void draw_edges(Svg& svg, const Positions& at, const std::set<Pair>& edges, const std::string& cls,
                const std::string& style) {
  svg.raw("<g" + attr("class", cls) + ">\n");
  for (const auto& [a, b] : edges) {
    const auto pa = at.find(a);
    const auto pb = at.find(b);
    if (pa == at.end() || pb == at.end()) continue;
    svg.line(pa->second.first, pa->second.second, pb->second.first, pb->second.second,
             attr("data-a", a) + attr("data-b", b) + style);
  }
  svg.raw("</g>\n");
}

}  // namespace

std::string overlay_svg(const RunFiles& run) {
  const Overlay overlay = overlay_of(run);
  const double size = 640;
  const double centre = size / 2;
  const Positions at = positions(overlay, centre, centre - 40);
  Svg svg("overlay-svg", size, size, "overlay: static connections, shortcuts, relays");
  draw_edges(svg, at, overlay.statics, "edge static",
             attr("stroke", "#777777") + attr("stroke-width", "0.7"));
  draw_edges(svg, at, overlay.failed, "edge failed",
             attr("stroke", "#d00000") + attr("stroke-dasharray", "3 2"));
  draw_edges(svg, at, overlay.shortcuts, "edge shortcut",
             attr("stroke", "#e07000") + attr("stroke-width", "1.5"));
  draw_edges(svg, at, overlay.attachments, "edge attach",
             attr("stroke", "#6fa8ff") + attr("stroke-dasharray", "2 2"));
  draw_edges(svg, at, overlay.relay_links, "edge relay",
             attr("stroke", "#1f5fbf") + attr("stroke-width", "2"));
  const bool numbered = overlay.ranks.size() <= 64;
  for (const std::string& rank : overlay.ranks) {
    const auto& [x, y] = at.at(rank);
    svg.raw("<g" + attr("class", "rank") + attr("data-rank", rank.substr(1)) + "><title>" + rank +
            "</title>\n");
    svg.circle(x, y, numbered ? 7 : 3.5, attr("fill", "#ffffff") + attr("stroke", "#222222"));
    if (numbered)
      svg.text(x, y + 3, rank.substr(1), attr("text-anchor", "middle") + attr("font-size", "8"));
    svg.raw("</g>\n");
  }
  for (const std::string& relay : overlay.relays) {
    const auto& [x, y] = at.at(relay);
    svg.raw("<g class=\"relay\"><title>relay " + escape(relay) + "</title>\n");
    svg.rect(
        x - 5, y - 5, 10, 10,
        attr("fill", "#1f5fbf") + attr("transform", "rotate(45 " + num(x) + " " + num(y) + ")"));
    svg.raw("</g>\n");
  }
  return svg.str();
}

std::string overlay_dot(const RunFiles& run) {
  const Overlay overlay = overlay_of(run);
  const Positions at = positions(overlay, 0, 5);  // inches: neato -n keeps them
  std::ostringstream dot;
  dot << "// tsunagi: the overlay of " << run.result.value("scenario", "a run")
      << "; grey static, orange shortcut, red dashed failed connect, blue relay link\n"
      << "// render (positions fixed): neato -n -Tsvg overlay.dot -o overlay.svg\n"
      << "graph overlay {\n  node [shape = circle, fontname = \"sans-serif\", fontsize = 8, "
         "width = 0.25, margin = 0.02];\n";
  for (const auto& [label, xy] : at)
    dot << "  " << dot_quoted(label) << " [pos = \"" << num(xy.first * 72) << ','
        << num(xy.second * -72) << '"'
        << (rank_of(label) < 0 ? ", shape = diamond, style = filled, fillcolor = \"#9fc0ff\"" : "")
        << "];\n";
  auto edges = [&](const std::set<Pair>& set, const char* style) {
    for (const auto& [a, b] : set)
      if (at.contains(a) && at.contains(b))
        dot << "  " << dot_quoted(a) << " -- " << dot_quoted(b) << " [" << style << "];\n";
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
