// Words for what result.json says, shared by the run summary and the run report so that both
// say the same thing: "correct", "WRONG", "not run", "from site labels".
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tsunagi::runner {

// inference.groups_source: "rtt" (inferred from RTTs), "site_labels" (relay plan: the groups
// are the ranks' site labels), "none" (the plan needs no groups); "" when result.json predates it.
std::string groups_source(const nlohmann::ordered_json& result);

// "correct" or "WRONG" for groups inferred from RTTs; "from site labels" / "not run" otherwise;
// "?" when the run did not report.
std::string groups_verdict(const nlohmann::ordered_json& result);

}  // namespace tsunagi::runner
