// The true network as a drawable tree (report_tree.hpp).
#include "report_tree.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "report_svg.hpp"

namespace tsunagi::runner::report {
namespace {

using nlohmann::ordered_json;

int add(DrawnTree& tree, DrawnNode node, int parent) {
  tree.nodes.push_back(std::move(node));
  const int index = static_cast<int>(tree.nodes.size()) - 1;
  if (parent >= 0) tree.nodes[static_cast<std::size_t>(parent)].children.push_back(index);
  return index;
}

int int_at(const ordered_json& object, const char* key, int fallback = -1) {
  const auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int>() : fallback;
}

std::string string_at(const ordered_json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// {bandwidth_bps, latency_ns} of `object[key]`; unknown when absent (older topology.json).
LinkFigures link_at(const ordered_json& object, const char* key) {
  LinkFigures link;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_object()) return link;
  const auto bandwidth = it->find("bandwidth_bps");
  const auto latency = it->find("latency_ns");
  if (bandwidth != it->end() && bandwidth->is_number())
    link.bandwidth_bps = bandwidth->get<double>();
  if (latency != it->end() && latency->is_number_integer())
    link.latency_ns = latency->get<long long>();
  return link;
}

// Clusters (WAN) or Dragonfly groups: one node each under a virtual root.
std::vector<int> add_containers(DrawnTree& tree, const ordered_json& topology,
                                const std::string& kind) {
  std::vector<int> containers;
  if (kind == "wan") {
    tree.root = add(tree, {"WAN core", "core", -1, "routers joined by the wide-area core", {}}, -1);
    for (const auto& cluster : topology.value("clusters", ordered_json::array())) {
      const std::string name = string_at(cluster, "name");
      const std::string policy = string_at(cluster, "policy");
      DrawnNode node{name, "cluster", -1, "cluster " + name + ", router policy " + policy, {}};
      node.link = link_at(cluster, "wan_link");
      containers.push_back(add(tree, std::move(node), tree.root));
    }
  } else if (kind == "serial") {
    // Every node's link card hangs from one root: the links themselves are not a tree.
    tree.root = add(
        tree, {"serial links", "core", -1, "nodes joined by serial links (drawn beside)", {}}, -1);
    containers.push_back(tree.root);
  } else if (kind == "dragonfly") {
    tree.root = add(tree, {"Dragonfly", "core", -1, "groups joined by blue links", {}}, -1);
    int groups = 0;
    for (const auto& sw : topology.value("switches", ordered_json::array()))
      groups = std::max(groups, int_at(sw, "group", 0) + 1);
    for (int g = 0; g < groups; ++g)
      containers.push_back(add(
          tree,
          {"group " + std::to_string(g), "group", -1, "Dragonfly group " + std::to_string(g), {}},
          tree.root));
  }
  return containers;
}

// The container a root switch (or router) hangs from, or -1 (it is the tree's root).
int container_of(const ordered_json& sw, const std::string& kind,
                 const std::vector<int>& containers) {
  if (kind == "serial") return containers.empty() ? -1 : containers.front();
  const int index = kind == "dragonfly" ? int_at(sw, "group", 0) : int_at(sw, "cluster");
  return index >= 0 && static_cast<std::size_t>(index) < containers.size()
             ? containers[static_cast<std::size_t>(index)]
             : -1;
}

void place(DrawnTree& tree, int node, int depth, double unit, double left, int& slot) {
  DrawnNode& self = tree.nodes[static_cast<std::size_t>(node)];
  self.depth = depth;
  tree.depth = std::max(tree.depth, depth);
  if (self.children.empty()) {
    self.x = left + (slot++ + 0.5) * unit;
    return;
  }
  for (int child : self.children) place(tree, child, depth + 1, unit, left, slot);
  const auto& first = tree.nodes[static_cast<std::size_t>(self.children.front())];
  const auto& last = tree.nodes[static_cast<std::size_t>(self.children.back())];
  tree.nodes[static_cast<std::size_t>(node)].x = (first.x + last.x) / 2;
}

}  // namespace

std::string link_label(const LinkFigures& link) {
  if (!link.known()) return "";
  char rate[32];
  const double bps = link.bandwidth_bps;
  if (bps >= 1e9) {
    std::snprintf(rate, sizeof rate, "%.3g Gbps", bps * 1e-9);
  } else if (bps >= 1e6) {
    std::snprintf(rate, sizeof rate, "%.3g Mbps", bps * 1e-6);
  } else {
    std::snprintf(rate, sizeof rate, "%.3g Kbps", bps * 1e-3);
  }
  return std::string(rate) + ", " + time_text(link.latency_ns);
}

DrawnTree true_tree(const RunFiles& run) {
  DrawnTree tree;
  if (!run.topology.is_object()) return tree;
  const std::string kind = string_at(run.topology, "kind");
  const ordered_json switches = run.topology.value("switches", ordered_json::array());
  const std::vector<int> containers = add_containers(tree, run.topology, kind);
  std::vector<int> node_of_switch;
  for (const auto& sw : switches) {
    const std::string name = string_at(sw, "name");
    const int parent = int_at(sw, "parent");
    const int hang_from = parent >= 0 && static_cast<std::size_t>(parent) < node_of_switch.size()
                              ? node_of_switch[static_cast<std::size_t>(parent)]
                              : container_of(sw, kind, containers);
    DrawnNode drawn{name, "switch", -1, "switch " + name, {}};
    drawn.link = link_at(sw, "uplink");
    const int node = add(tree, std::move(drawn), hang_from);
    if (hang_from < 0 && tree.root < 0) tree.root = node;
    node_of_switch.push_back(node);
  }
  const ordered_json ranks = run.topology.value("ranks", ordered_json::array());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const int sw = int_at(ranks[r], "switch");
    tree.true_switch_of_rank.push_back(sw);
    if (sw < 0 || static_cast<std::size_t>(sw) >= node_of_switch.size()) continue;
    const std::string label = "r" + std::to_string(r);
    DrawnNode rank{
        label, "rank", static_cast<int>(r), label + " on host " + string_at(ranks[r], "host"), {}};
    rank.link = link_at(switches[static_cast<std::size_t>(sw)], "host_link");
    add(tree, std::move(rank), node_of_switch[static_cast<std::size_t>(sw)]);
  }
  for (const auto& link : run.topology.value("links", ordered_json::array())) {
    const int a = int_at(link, "a"), b = int_at(link, "b");
    if (a < 0 || b < 0 || static_cast<std::size_t>(std::max(a, b)) >= node_of_switch.size())
      continue;
    tree.links.push_back({node_of_switch[static_cast<std::size_t>(a)],
                          node_of_switch[static_cast<std::size_t>(b)], string_at(link, "class"),
                          link_at(link, "link")});
  }
  for (const auto& relay : run.topology.value("relays", ordered_json::array())) {
    const int cluster = int_at(relay, "cluster");
    if (cluster < 0 || static_cast<std::size_t>(cluster) >= containers.size()) continue;
    const std::string label = string_at(relay, "label");
    add(tree, {label, "relay", -1, "relay daemon " + label, {}},
        containers[static_cast<std::size_t>(cluster)]);
  }
  return tree;
}

void layout_tree(DrawnTree& tree, double unit, double left) {
  if (tree.root < 0) return;
  int slot = 0;
  place(tree, tree.root, 0, unit, left, slot);
  tree.leaves = slot;
}

bool groups_inferred(const RunFiles& run) {
  const auto inference = run.result.find("inference");
  if (inference == run.result.end() || !inference->is_object()) return false;
  const auto inferred = inference->find("inferred");
  if (inferred != inference->end() && *inferred == false) return false;
  const auto groups = inference->find("groups");
  return groups != inference->end() && groups->is_array() && !groups->empty();
}

std::vector<bool> rank_mismatches(const RunFiles& run, const DrawnTree& tree) {
  if (!groups_inferred(run)) return {};
  const std::vector<int> inferred = inferred_group_of_rank(run);
  std::map<int, std::set<int>> true_members;
  std::map<int, std::set<int>> inferred_members;
  const std::size_t n = std::min(inferred.size(), tree.true_switch_of_rank.size());
  for (std::size_t r = 0; r < n; ++r) {
    true_members[tree.true_switch_of_rank[r]].insert(static_cast<int>(r));
    inferred_members[inferred[r]].insert(static_cast<int>(r));
  }
  std::vector<bool> wrong(inferred.size(), false);
  for (std::size_t r = 0; r < n; ++r)
    wrong[r] = inferred[r] < 0 ||
               inferred_members[inferred[r]] != true_members[tree.true_switch_of_rank[r]];
  return wrong;
}

}  // namespace tsunagi::runner::report
