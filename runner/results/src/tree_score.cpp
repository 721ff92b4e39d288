// result.json "inference.tree_correct": the rendezvous's inferred switch tree against the
// scenario's. Trees are compared unrooted (same split of the groups across every link between
// switches), because no interference measurement can place the root (docs/tree-inference.md);
// `tree_root_matches` says whether the rooted trees agree as well. A network without a switch
// tree (a Dragonfly) gets the reason instead of a verdict.
#include "result_sections.hpp"
#include "tsunagi/model/topology/tree_inference.hpp"

namespace tsunagi::runner::detail {
namespace {

std::optional<SwitchTree> parse_tree(const nlohmann::json& tree) {
  if (!tree.is_object() || !tree.contains("leaves") || !tree.contains("parent"))
    return std::nullopt;
  SwitchTree out;
  try {
    out.leaves = tree.at("leaves").get<int>();
    out.parent = tree.at("parent").get<std::vector<int>>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  if (out.leaves < 0 || static_cast<std::size_t>(out.leaves) > out.parent.size())
    return std::nullopt;
  for (int p : out.parent)
    if (p < -1 || p >= static_cast<int>(out.parent.size())) return std::nullopt;
  return out;
}

// The true tree over the inferred groups: leaf i (the i-th inferred group) hangs off the
// switch of its ranks; switch nodes follow. nullopt when a group spans several true switches.
std::optional<SwitchTree> true_tree_over(const Groups& groups, const RunFacts& facts) {
  SwitchTree truth;
  truth.leaves = static_cast<int>(groups.size());
  const int switches = static_cast<int>(facts.true_switch_parent.size());
  for (const auto& group : groups) {
    int sw = -1;
    for (Rank r : group) {
      if (r < 0 || static_cast<std::size_t>(r) >= facts.true_switch_of_rank.size())
        return std::nullopt;
      const int of_rank = facts.true_switch_of_rank[static_cast<std::size_t>(r)];
      if (sw >= 0 && of_rank != sw) return std::nullopt;
      sw = of_rank;
    }
    if (sw < 0 || sw >= switches) return std::nullopt;
    truth.parent.push_back(truth.leaves + sw);
  }
  for (int p : facts.true_switch_parent) truth.parent.push_back(p < 0 ? -1 : truth.leaves + p);
  return truth;
}

}  // namespace

void score_tree(const nlohmann::json& report, const RunFacts& facts,
                nlohmann::ordered_json& section) {
  if (!report.is_object() || !report.contains("tree")) return;
  if (!facts.tree_not_applicable.empty()) {
    // Routers joined in a graph: any inferred tree is a guess with nothing true to compare to.
    section["tree_correct"] = facts.tree_not_applicable;
    section["tree_root_matches"] = facts.tree_not_applicable;
    section["tree_assumptions_hold"] = false;
    return;
  }
  const auto inferred = parse_tree(report.at("tree"));
  const auto groups_it = report.find("groups");
  std::optional<SwitchTree> truth;
  if (inferred && groups_it != report.end() && groups_it->is_array()) {
    try {
      truth = true_tree_over(groups_it->get<Groups>(), facts);
    } catch (const nlohmann::json::exception&) {
      truth = std::nullopt;
    }
  }
  const bool groups_right = section.contains("groups_correct") && section["groups_correct"] == true;
  const bool comparable = inferred && truth && groups_right &&
                          static_cast<std::size_t>(inferred->leaves) == groups_it->size();
  section["tree_correct"] = comparable && same_unrooted_tree(*inferred, *truth);
  section["tree_root_matches"] = comparable && same_leaf_sets(*inferred, *truth);
  section["tree_assumptions_hold"] = facts.tree_assumptions_hold;
}

}  // namespace tsunagi::runner::detail
