// result.json "connections" and "messages": sums and peaks over every rank's 'node' report.
#include <algorithm>
#include <map>

#include "result_sections.hpp"

namespace tsunagi::runner::detail {

namespace {

using nlohmann::ordered_json;

// Aggregates of one integer field over all ranks; nullopt (and a reason) when any rank lacks it,
// because a sum over some of the ranks would look like a real figure and mislead.
struct FieldTotals {
  std::uint64_t sum = 0;
  std::uint64_t max = 0;
};

std::optional<FieldTotals> totals(const ReportIndex& reports, const char* field, std::string& why) {
  why = node_field_gap(reports, field);
  if (!why.empty()) return std::nullopt;
  FieldTotals result;
  for (const nlohmann::json* node : reports.nodes) {
    std::uint64_t value = *get_count(*node, field);
    result.sum += value;
    result.max = std::max(result.max, value);
  }
  return result;
}

double mean_of(const FieldTotals& totals, std::size_t count) {
  return count == 0 ? 0.0 : static_cast<double>(totals.sum) / static_cast<double>(count);
}

// Writes `value` at `key`, or null and the reason when it could not be computed.
template <typename T>
void put(ordered_json& section, const std::string& prefix, const char* key,
         const std::optional<T>& value, const std::string& why, NullReasons& nulls) {
  if (value) {
    section[key] = *value;
  } else {
    section[key] = nullptr;
    nulls[prefix + key] = why;
  }
}

}  // namespace

ordered_json connections_section(const ReportIndex& reports, NullReasons& nulls) {
  const std::size_t n = reports.nodes.size();
  std::string peak_why, static_why, opened_why, evicted_why;
  auto peak = totals(reports, "max_connections", peak_why);
  auto statics = totals(reports, "static_connections", static_why);
  auto opened = totals(reports, "shortcuts_opened", opened_why);
  auto evicted = totals(reports, "shortcuts_evicted", evicted_why);

  ordered_json section = ordered_json::object();
  const std::string p = "connections.";
  put(section, p, "max_per_node", peak ? std::optional(peak->max) : std::nullopt, peak_why, nulls);
  put(section, p, "mean_per_node", peak ? std::optional(mean_of(*peak, n)) : std::nullopt, peak_why,
      nulls);
  // Every static connection has two ends and each end counts it once.
  std::optional<std::uint64_t> static_total;
  if (statics) static_total = statics->sum / 2;
  put(section, p, "static", static_total, static_why, nulls);
  put(section, p, "static_max_per_node", statics ? std::optional(statics->max) : std::nullopt,
      static_why, nulls);
  std::optional<std::uint64_t> total;
  if (static_total && opened) total = *static_total + opened->sum;
  put(section, p, "total", total, static_total ? opened_why : static_why, nulls);
  put(section, p, "shortcuts_opened", opened ? std::optional(opened->sum) : std::nullopt,
      opened_why, nulls);
  put(section, p, "shortcuts_evicted", evicted ? std::optional(evicted->sum) : std::nullopt,
      evicted_why, nulls);
  // Beyond the report contract (optional): connections in their goodbye handshake.
  std::string closing_why;
  auto closing = totals(reports, "max_closing_connections", closing_why);
  section["max_closing_per_node"] = closing ? ordered_json(closing->max) : ordered_json(nullptr);
  return section;
}

ordered_json messages_section(const ReportIndex& reports, NullReasons& nulls) {
  ordered_json section = ordered_json::object();
  const std::string p = "messages.";
  // "undeliverable" and "frames_rejected" are beyond the report contract: null (and no
  // problem, they are not required keys) if a core omits them.
  std::map<std::string, std::optional<std::uint64_t>> sums;
  std::optional<std::uint64_t> relayed_max;
  for (const char* key : {"sent", "delivered", "relayed", "undeliverable"}) {
    const std::string field = std::string("messages_") + key;
    std::string why;
    auto total = totals(reports, field.c_str(), why);
    sums[key] = total ? std::optional(total->sum) : std::nullopt;
    put(section, p, key, sums[key], why, nulls);
    if (std::string(key) == "relayed" && total) relayed_max = total->max;
  }
  // The busiest forwarder: under the hierarchical plan a leader near the root (its load is
  // what the plan trades for fewer connections, docs/architecture.md).
  section["relayed_max_per_node"] =
      relayed_max ? ordered_json(*relayed_max) : ordered_json(nullptr);
  // Every message a workload sends ends delivered or undeliverable (counted where the notice
  // arrives, or where it was dropped for want of a route); what is left vanished unexplained.
  const auto& sent = sums["sent"];
  const auto& delivered = sums["delivered"];
  const auto& undeliverable = sums["undeliverable"];
  if (sent && delivered && undeliverable) {
    section["lost"] = *sent > *delivered + *undeliverable ? *sent - *delivered - *undeliverable : 0;
  } else {
    section["lost"] = nullptr;
  }
  std::string why;
  auto rejected = totals(reports, "frames_rejected", why);
  put(section, p, "frames_rejected", rejected ? std::optional(rejected->sum) : std::nullopt, why,
      nulls);
  return section;
}

}  // namespace tsunagi::runner::detail
