// Words for result.json's verdicts (verdicts.hpp).
#include "tsunagi/runner/results/verdicts.hpp"

#include "tsunagi/runner/results/result.hpp"

namespace tsunagi::runner {

std::string groups_source(const nlohmann::ordered_json& result) {
  const auto* source = find_dotted(result, "inference.groups_source");
  return source != nullptr && source->is_string() ? source->get<std::string>() : "";
}

std::string groups_verdict(const nlohmann::ordered_json& result) {
  const std::string source = groups_source(result);
  if (source == "site_labels") return "from site labels";
  if (source == "none") return "not run";
  const auto* correct = find_dotted(result, "inference.groups_correct");
  if (correct == nullptr || !correct->is_boolean()) return "?";
  return correct->get<bool>() ? "correct" : "WRONG";
}

}  // namespace tsunagi::runner
