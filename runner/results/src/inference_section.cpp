// result.json "inference": the rendezvous's inferred switch groups, scored against the
// scenario's true groups. This is the only place where ground truth meets inference.
#include <algorithm>

#include "result_sections.hpp"

namespace tsunagi::runner::detail {

namespace {

using nlohmann::ordered_json;

// The "groups" field of the inference report, or nullopt when it is not a list of rank lists.
std::optional<Groups> parse_groups(const nlohmann::json& report) {
  if (!report.is_object()) return std::nullopt;
  auto it = report.find("groups");
  if (it == report.end() || !it->is_array()) return std::nullopt;
  Groups groups;
  for (const nlohmann::json& group : *it) {
    if (!group.is_array()) return std::nullopt;
    std::vector<Rank> ranks;
    for (const nlohmann::json& rank : group) {
      if (!rank.is_number_integer()) return std::nullopt;
      ranks.push_back(rank.get<Rank>());
    }
    groups.push_back(std::move(ranks));
  }
  return canonical_groups(std::move(groups));
}

// Probes the ranks say they issued; a cross-check of the rendezvous's own count.
std::optional<std::uint64_t> node_probe_sum(const ReportIndex& reports) {
  if (!node_field_gap(reports, "rtt_probes").empty()) return std::nullopt;
  std::uint64_t sum = 0;
  for (const nlohmann::json* node : reports.nodes) sum += *get_count(*node, "rtt_probes");
  return sum;
}

// Fields of the report beyond the contract (an inferred tree, timings) are kept as they are.
void copy_extra_fields(const nlohmann::json& report, ordered_json& section) {
  if (!report.is_object()) return;
  for (auto it = report.begin(); it != report.end(); ++it) {
    if (!section.contains(it.key())) section[it.key()] = it.value();
  }
}

// "rtt" when the rendezvous inferred the groups from RTTs, "site_labels" when it took them
// from the ranks' sites (relay plan), "none" when the plan needs no groups. Reports without
// the "inferred" flag come from cores that always inferred.
std::string groups_source_of(const nlohmann::json* report) {
  if (report == nullptr || !report->is_object()) return "rtt";
  const auto inferred = report->find("inferred");
  if (inferred == report->end() || !inferred->is_boolean() || inferred->get<bool>()) return "rtt";
  const auto groups = report->find("groups");
  return groups != report->end() && groups->is_array() && !groups->empty() ? "site_labels" : "none";
}

}  // namespace

ordered_json inference_section(const ReportIndex& reports, const RunFacts& facts,
                               NullReasons& nulls) {
  const Groups truth = canonical_groups(facts.true_groups);
  std::optional<Groups> inferred;
  std::optional<std::uint64_t> probes;
  std::string why = "the rendezvous never sent its 'inference' report";
  std::string probes_why = why;
  if (reports.inference != nullptr) {
    inferred = parse_groups(*reports.inference);
    why = "the 'inference' report has no 'groups' list of rank lists";
    probes = get_count(*reports.inference, "rtt_probes");
    probes_why = "the 'inference' report has no non-negative integer 'rtt_probes'";
  }

  const std::string source = groups_source_of(reports.inference);
  ordered_json section = ordered_json::object();
  if (inferred) {
    section["groups"] = *inferred;
    section["groups_count"] = inferred->size();
    // Only groups inferred from RTTs can be right or wrong; site labels and "no groups" are
    // neither (docs/result-schema.md).
    section["groups_correct"] =
        source == "rtt" ? ordered_json(*inferred == truth) : ordered_json(nullptr);
    section["groups_source"] = source;
  } else {
    for (const char* key : {"groups", "groups_count", "groups_correct"}) {
      section[key] = nullptr;
      nulls[std::string("inference.") + key] = why;
    }
  }
  section["true_groups"] = truth;
  // Why a wrong answer here does not fail the run, or null when it does (inference_problems).
  const bool plan_infers = reports.inference == nullptr || !reports.inference->is_object() ||
                           reports.inference->value("inferred", true);
  if (!plan_infers)
    section["groups_not_judged"] = "the plan does not infer switch groups (only topology does)";
  else if (!facts.summary.topology_hidden.empty())
    section["groups_not_judged"] = facts.summary.topology_hidden;
  else if (!facts.groups_condition_holds)
    section["groups_not_judged"] =
        "the network does not meet the condition under which group "
        "inference is right (inference.groups_condition)";
  else
    section["groups_not_judged"] = nullptr;
  section["groups_condition_holds"] = facts.groups_condition_holds;
  section["groups_condition"] = facts.groups_condition;
  section["true_groups_count"] = truth.size();
  if (probes) {
    section["rtt_probes"] = *probes;
  } else {
    section["rtt_probes"] = nullptr;
    nulls["inference.rtt_probes"] = probes_why;
  }
  auto by_nodes = node_probe_sum(reports);
  section["rtt_probes_by_nodes"] = by_nodes ? ordered_json(*by_nodes) : ordered_json(nullptr);
  if (reports.inference != nullptr) {
    copy_extra_fields(*reports.inference, section);
    score_tree(*reports.inference, facts, section);
  }
  return section;
}

std::vector<std::string> inference_problems(const ordered_json& section) {
  std::vector<std::string> problems;
  const ordered_json& correct = section.at("groups_correct");
  // Where no truth can be seen or no guarantee exists, a wrong answer is a measurement, not
  // a failure: result.json still says groups_correct = false and why it was not judged.
  if (!section.at("groups_not_judged").is_null()) return problems;
  if (correct.is_boolean() && !correct.get<bool>())
    problems.push_back("inference: " + std::to_string(section.value("groups_count", 0)) +
                       " groups inferred where the scenario has " +
                       std::to_string(section.value("true_groups_count", 0)) +
                       " switch groups, and they differ from the true ones although the "
                       "network meets the condition under which inference is right "
                       "(inference.groups_condition)");
  return problems;
}

}  // namespace tsunagi::runner::detail

namespace tsunagi::runner {

Groups canonical_groups(Groups groups) {
  for (auto& group : groups) std::sort(group.begin(), group.end());
  // Empty groups carry no information and have no smallest rank to order by.
  std::erase_if(groups, [](const std::vector<Rank>& group) { return group.empty(); });
  // Lexicographic order = by smallest rank, and still total if a bad report repeats a rank.
  std::sort(groups.begin(), groups.end());
  return groups;
}

}  // namespace tsunagi::runner
