// The report's picture of what the rendezvous inferred: its switch tree over the inferred
// groups (inference.tree: leaves first, then switches, parent indices), or the groups alone.
#include <algorithm>

#include "report_parts.hpp"
#include "report_svg.hpp"
#include "report_tree.hpp"

namespace tsunagi::runner::report {
namespace {

constexpr double kLevel = 50;
constexpr double kMargin = 20;
constexpr double kLeafWidth = 64;

std::string group_text(const nlohmann::ordered_json& group) {
  std::string text;
  for (const auto& rank : group) text += (text.empty() ? "" : " ") + rank.dump();
  return text;
}

// Depth of each tree node from the root (parents may come in any order); -1 on a cycle.
std::vector<int> depths(const std::vector<int>& parent) {
  std::vector<int> depth(parent.size(), -1);
  for (std::size_t i = 0; i < parent.size(); ++i) {
    int d = 0;
    int at = static_cast<int>(i);
    while (at >= 0 && parent[static_cast<std::size_t>(at)] >= 0 &&
           d <= static_cast<int>(parent.size())) {
      at = parent[static_cast<std::size_t>(at)];
      ++d;
    }
    depth[i] = d > static_cast<int>(parent.size()) ? -1 : d;
  }
  return depth;
}

}  // namespace

std::string inferred_topology_svg(const RunFiles& run) {
  if (!groups_inferred(run)) return "";
  const nlohmann::ordered_json& groups = *find_dotted(run.result, "inference.groups");
  const nlohmann::ordered_json* tree = find_dotted(run.result, "inference.tree");
  std::vector<int> parent;
  if (tree != nullptr && tree->is_object() &&
      tree->value("leaves", -1) == static_cast<int>(groups.size())) {
    try {
      parent = tree->at("parent").get<std::vector<int>>();
    } catch (const nlohmann::json::exception&) {
      parent.clear();
    }
  }
  const std::size_t leaves = groups.size();
  std::vector<int> depth = depths(parent);
  const bool has_tree = parent.size() >= leaves && !parent.empty() &&
                        std::none_of(depth.begin(), depth.end(), [](int d) { return d < 0; });
  if (!has_tree) {
    parent.assign(leaves, -1);
    depth.assign(leaves, 0);
  }
  const int max_depth = *std::max_element(depth.begin(), depth.end());
  // Leaves (groups) sit on the bottom row in group order; a switch is centred over its leaves.
  std::vector<double> x(parent.size(), 0);
  std::vector<int> count(parent.size(), 0);
  for (std::size_t g = 0; g < leaves; ++g) {
    x[g] = kMargin + (static_cast<double>(g) + 0.5) * kLeafWidth;
    for (int at = parent[g]; at >= 0; at = parent[static_cast<std::size_t>(at)]) {
      x[static_cast<std::size_t>(at)] += x[g];
      ++count[static_cast<std::size_t>(at)];
    }
  }
  for (std::size_t i = leaves; i < parent.size(); ++i)
    if (count[i] > 0) x[i] /= count[i];
  const double width = std::max(300.0, 2 * kMargin + kLeafWidth * static_cast<double>(leaves));
  const double height = 2 * kMargin + kLevel * (max_depth + 1) + 20;
  auto y_of = [&](std::size_t i) {
    return i < leaves ? kMargin + kLevel * max_depth + 10 : kMargin + kLevel * depth[i];
  };
  Svg svg("inferred-svg", width, height,
          has_tree ? "inferred switch tree over the inferred groups" : "inferred groups");
  for (std::size_t i = 0; i < parent.size(); ++i)
    if (parent[i] >= 0)
      svg.line(x[i], y_of(i), x[static_cast<std::size_t>(parent[i])],
               y_of(static_cast<std::size_t>(parent[i])), attr("stroke", "#999999"));
  for (std::size_t i = leaves; i < parent.size(); ++i) {
    svg.raw("<g class=\"net switch inferred\"><title>inferred switch S" +
            std::to_string(i - leaves) + "</title>\n");
    svg.rect(x[i] - 16, y_of(i) - 8, 32, 16,
             attr("rx", "4") + attr("fill", "#ffffff") + attr("stroke", "#555555"));
    svg.text(x[i], y_of(i) + 4, "S" + std::to_string(i - leaves), attr("text-anchor", "middle"));
    svg.raw("</g>\n");
  }
  for (std::size_t g = 0; g < leaves; ++g) {
    svg.raw("<g" + attr("class", "group") + attr("data-group", std::to_string(g)) + "><title>" +
            escape("inferred group " + std::to_string(g) + ": ranks " + group_text(groups[g])) +
            "</title>\n");
    svg.rect(x[g] - kLeafWidth / 2 + 3, y_of(g) - 9, kLeafWidth - 6, 18,
             attr("rx", "3") + attr("fill", palette(g, leaves)) + attr("stroke", "#333333"));
    svg.text(x[g], y_of(g) + 4, "G" + std::to_string(g) + ": " + std::to_string(groups[g].size()),
             attr("text-anchor", "middle"));
    svg.raw("</g>\n");
  }
  return svg.str();
}

}  // namespace tsunagi::runner::report
