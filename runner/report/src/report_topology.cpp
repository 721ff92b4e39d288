// The report's pictures of the network: the true one with each rank coloured by its inferred
// group and wrong ones marked, its DOT form, and what the rendezvous inferred.
#include <algorithm>
#include <map>
#include <sstream>

#include "report_parts.hpp"
#include "report_rows.hpp"
#include "report_svg.hpp"
#include "report_tree.hpp"

namespace tsunagi::runner::report {
namespace {

constexpr double kLevel = 56;   // vertical distance between tree levels
constexpr double kMargin = 20;  // around the drawing

std::size_t group_count(const RunFiles& run) {
  const auto* groups = find_dotted(run.result, "inference.groups");
  return groups != nullptr && groups->is_array() ? groups->size() : 0;
}

std::string rank_fill(int group, std::size_t groups) {
  return group < 0 ? "#cccccc" : palette(static_cast<std::size_t>(group), groups);
}

void draw_rank(Svg& svg, const DrawnNode& node, double y, double size, int group,
               std::size_t groups, bool wrong, bool numbered) {
  const std::string note =
      node.note +
      (group < 0 ? ", no inferred group" : ", inferred group " + std::to_string(group)) +
      (wrong ? " — WRONG: its inferred group is not its switch's ranks" : "");
  svg.raw("<g" + attr("class", wrong ? "rank mismatch" : "rank") +
          attr("data-rank", std::to_string(node.rank)) + "><title>" + escape(note) + "</title>\n");
  svg.rect(node.x - size / 2, y, size, size,
           attr("fill", rank_fill(group, groups)) + attr("stroke", wrong ? "#d00000" : "#333333") +
               attr("stroke-width", wrong ? "2.5" : "0.5"));
  if (wrong)
    svg.text(node.x, y + size + 10, "x",
             attr("class", "mark") + attr("fill", "#d00000") + attr("text-anchor", "middle"));
  if (numbered)
    svg.text(node.x, y - 3, std::to_string(node.rank),
             attr("text-anchor", "middle") + attr("font-size", "8"));
  svg.raw("</g>\n");
}

std::string fill_of(const DrawnNode& node) {
  if (node.kind == "relay") return "#cfe3ff";
  if (node.kind == "cluster" || node.kind == "group" || node.kind == "core") return "#f3f3f3";
  return "#ffffff";
}

// The label, cut to the width its subtree spans (about 6.5 px a character) so that
// neighbours' labels do not overlap; the tooltip keeps the whole name.
std::string fitted_label(const DrawnNode& node, const DrawnTree& tree, double unit) {
  double span = unit;
  if (!node.children.empty()) {
    const DrawnNode& first = tree.nodes[static_cast<std::size_t>(node.children.front())];
    const DrawnNode& last = tree.nodes[static_cast<std::size_t>(node.children.back())];
    span += last.x - first.x;
  }
  const auto fits = static_cast<std::size_t>(std::max(1.0, (span - 10) / 6.5));
  if (node.label.size() <= fits) return node.label;
  return node.label.substr(0, fits > 2 ? fits - 1 : 1) + "~";
}

// The ranks under one switch, when they are too many to draw one by one.
struct RankFold {
  int ranks = 0;
  int wrong = 0;
  std::map<int, int> groups;  // inferred group -> ranks in it
  int main_group() const {
    int best = -1, most = 0;
    for (const auto& [group, n] : groups)
      if (n > most) best = group, most = n;
    return best;
  }
  std::string note(const std::string& name) const {
    std::string text = name + ": " + std::to_string(ranks) + " ranks; inferred groups";
    for (const auto& [group, n] : groups)
      text += " " + (group < 0 ? std::string("none") : "G" + std::to_string(group)) + " x" +
              std::to_string(n);
    return text + "; " + std::to_string(wrong) + " in a wrongly inferred group";
  }
};

// Above kRowsPerRankMax ranks: takes the ranks out of the tree (so its switches are the
// leaves) and sums them up per switch.
std::map<int, RankFold> fold_ranks(DrawnTree& tree, const std::vector<int>& group_of,
                                   const std::vector<bool>& wrong) {
  std::map<int, RankFold> folds;
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    std::vector<int> kept;
    for (int child : tree.nodes[i].children) {
      const DrawnNode& c = tree.nodes[static_cast<std::size_t>(child)];
      if (c.kind != "rank") {
        kept.push_back(child);
        continue;
      }
      const auto r = static_cast<std::size_t>(c.rank);
      RankFold& fold = folds[static_cast<int>(i)];
      ++fold.ranks;
      fold.wrong += r < wrong.size() && wrong[r] ? 1 : 0;
      ++fold.groups[r < group_of.size() ? group_of[r] : -1];
    }
    tree.nodes[i].children = std::move(kept);
  }
  return folds;
}

void draw_fold(Svg& svg, const DrawnNode& node, const RankFold& fold, double y, double width,
               std::size_t groups) {
  svg.raw("<g" + attr("class", fold.wrong > 0 ? "ranks mismatch" : "ranks") + "><title>" +
          escape(fold.note(node.label)) + "</title>\n");
  svg.rect(node.x - width / 2, y, width, 24,
           attr("fill", rank_fill(fold.main_group(), groups)) +
               attr("stroke", fold.wrong > 0 ? "#d00000" : "#333333") +
               attr("stroke-width", fold.wrong > 0 ? "2" : "0.4"));
  svg.raw("</g>\n");
}

constexpr std::size_t kLinkLabelsMax = 64;

// Dragonfly link classes in the colours they are named after; serial links orange.
const char* link_colour(const std::string& kind) {
  if (kind == "green") return "forestgreen";
  if (kind == "blue") return "royalblue";
  if (kind == "black") return "black";
  return "darkorange";
}

}  // namespace

std::string true_topology_svg(const RunFiles& run) {
  DrawnTree tree = true_tree(run);
  if (tree.root < 0) return "";
  const std::vector<int> group_of = inferred_group_of_rank(run);
  const std::vector<bool> wrong = rank_mismatches(run, tree);
  const bool folded = process_count(run) > kRowsPerRankMax;
  const std::map<int, RankFold> folds =
      folded ? fold_ranks(tree, group_of, wrong) : std::map<int, RankFold>{};
  std::size_t leaves = 0;
  for (const DrawnNode& node : tree.nodes)
    leaves += node.children.empty() && !(folded && node.kind == "rank") ? 1 : 0;
  const double unit =
      std::clamp(1100.0 / static_cast<double>(std::max<std::size_t>(leaves, 1)), 4.0, 40.0);
  layout_tree(tree, unit, kMargin);
  const double width = std::max(400.0, 2 * kMargin + unit * static_cast<double>(tree.leaves));
  const double height = 2 * kMargin + kLevel * (tree.depth + (folded ? 1 : 0)) + 40;
  const std::size_t groups = group_count(run);
  const double size = std::min(12.0, unit - 1);
  Svg svg("topology-svg", width, height, "true network, ranks coloured by inferred group");
  auto y_of = [](const DrawnNode& node) { return kMargin + kLevel * node.depth; };
  for (const DrawnNode& node : tree.nodes)
    for (int child : node.children) {
      const DrawnNode& c = tree.nodes[static_cast<std::size_t>(child)];
      svg.line(node.x, y_of(node) + 8, c.x, y_of(c) - (c.kind == "rank" ? 0 : 8),
               attr("stroke", "#999999") + attr("stroke-width", "0.8"));
    }
  for (const auto& [index, fold] : folds) {
    const DrawnNode& node = tree.nodes[static_cast<std::size_t>(index)];
    svg.line(node.x, y_of(node) + 8, node.x, y_of(node) + kLevel - 4,
             attr("stroke", "#999999") + attr("stroke-width", "0.8"));
    draw_fold(svg, node, fold, y_of(node) + kLevel - 4, std::max(2.0, unit - 1), groups);
  }
  for (const DrawnNode& node : tree.nodes) {
    if (node.kind == "rank") {
      if (folded) continue;
      const auto r = static_cast<std::size_t>(node.rank);
      draw_rank(svg, node, y_of(node), size, r < group_of.size() ? group_of[r] : -1, groups,
                r < wrong.size() && wrong[r], unit >= 14);
      continue;
    }
    svg.raw("<g" + attr("class", "net " + node.kind) + "><title>" + escape(node.note) +
            "</title>\n");
    if (node.kind == "relay") {
      // A diamond, named in its tooltip: relays sit among switches, where a label would not fit.
      svg.rect(node.x - 5, y_of(node) - 5, 10, 10,
               attr("fill", "#1f5fbf") +
                   attr("transform", "rotate(45 " + num(node.x) + " " + num(y_of(node)) + ")"));
    } else if (node.children.empty() && unit < 12) {
      // A leaf switch narrower than any label: a dot; its name is in the tooltip.
      svg.circle(node.x, y_of(node), 2.5, attr("fill", "#555555"));
    } else {
      const std::string label = fitted_label(node, tree, unit);
      const double box = std::max(12.0, 6.5 * static_cast<double>(label.size()) + 8);
      svg.rect(node.x - box / 2, y_of(node) - 8, box, 16,
               attr("rx", "4") + attr("fill", fill_of(node)) + attr("stroke", "#555555"));
      svg.text(node.x, y_of(node) + 4, label, attr("text-anchor", "middle"));
    }
    svg.raw("</g>\n");
  }
  return svg.str();
}

std::string true_topology_dot(const RunFiles& run) {
  DrawnTree tree = true_tree(run);
  if (tree.root < 0) return "";
  const std::vector<int> group_of = inferred_group_of_rank(run);
  const std::vector<bool> wrong = rank_mismatches(run, tree);
  const std::size_t groups = group_count(run);
  // Above kRowsPerRankMax ranks a switch stands for its ranks: dot lays out 10,000 leaves in
  // minutes, 250 switches at once.
  const bool folded = process_count(run) > kRowsPerRankMax;
  const std::map<int, RankFold> folds =
      folded ? fold_ranks(tree, group_of, wrong) : std::map<int, RankFold>{};
  std::ostringstream dot;
  dot << "// tsunagi: the true network of " << run.result.value("scenario", "a run")
      << "; ranks filled by inferred group, red = in a wrongly inferred group\n"
      << "// render: dot -Tsvg topology.dot -o topology.svg\n"
      << "graph topology {\n  rankdir = TB; node [fontname = \"sans-serif\", fontsize = 10];\n";
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) {
    const DrawnNode& node = tree.nodes[i];
    if (folded && node.kind == "rank") continue;
    const auto fold = folds.find(static_cast<int>(i));
    if (fold != folds.end()) {
      const int group = fold->second.main_group();
      dot << "  n" << i << " [label = "
          << dot_quoted(node.label + " (" + std::to_string(fold->second.ranks) + " ranks)")
          << ", shape = box, style = \"rounded,filled\", fillcolor = "
          << dot_quoted(group < 0 ? "0 0 0.8"
                                  : palette_dot(static_cast<std::size_t>(group), groups))
          << (fold->second.wrong > 0 ? ", color = red, penwidth = 3" : "") << "];\n";
      continue;
    }
    dot << "  n" << i << " [label = " << dot_quoted(node.label);
    if (node.kind == "rank") {
      const auto r = static_cast<std::size_t>(node.rank);
      const int group = r < group_of.size() ? group_of[r] : -1;
      dot << ", shape = circle, style = filled, fillcolor = "
          << dot_quoted(group < 0 ? "0 0 0.8"
                                  : palette_dot(static_cast<std::size_t>(group), groups));
      if (r < wrong.size() && wrong[r]) dot << ", color = red, penwidth = 3";
    } else {
      dot << ", shape = box, style = rounded";
    }
    dot << "];\n";
  }
  for (std::size_t i = 0; i < tree.nodes.size(); ++i)
    for (int child : tree.nodes[i].children) {
      dot << "  n" << i << " -- n" << child;
      // Bandwidth and latency of the link (issue 33); topology.graphml has them as numbers.
      const std::string label = link_label(tree.nodes[static_cast<std::size_t>(child)].link);
      if (!label.empty()) dot << " [label = " << dot_quoted(label) << ", fontsize = 8]";
      dot << ";\n";
    }
  // A Dragonfly's router links and serial links, in their class's colour; they do not rank the
  // layout (constraint = false), which stays the tree's. Their figures are labels up to
  // kLinkLabelsMax links; beyond, tooltips: hundreds of labels hide the picture and make dot's
  // spline routing give up with warnings (xc30-256: 960 router links).
  const char* figures = tree.links.size() <= kLinkLabelsMax ? "label" : "tooltip";
  for (const DrawnLink& link : tree.links) {
    dot << "  n" << link.a << " -- n" << link.b
        << " [color = " << dot_quoted(link_colour(link.kind)) << ", constraint = false";
    const std::string label = link_label(link.link);
    if (!label.empty())
      dot << ", " << figures << " = " << dot_quoted(link.kind + ": " + label) << ", fontsize = 8";
    dot << "];\n";
  }
  dot << "}\n";
  return dot.str();
}

}  // namespace tsunagi::runner::report
