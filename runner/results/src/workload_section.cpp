// result.json "workload": the verifying rank's 'workload' report.
#include "result_sections.hpp"

namespace tsunagi::runner::detail {

namespace {

using nlohmann::ordered_json;

constexpr const char* kContractFields[] = {"name", "makespan_ns", "verified"};

bool is_contract_field(const std::string& key) {
  for (const char* field : kContractFields) {
    if (key == field) return true;
  }
  return false;
}

// Whatever else the workload reported (keys sorted, iterations, bytes moved...).
ordered_json extra_fields(const nlohmann::json& report) {
  ordered_json details = ordered_json::object();
  for (auto it = report.begin(); it != report.end(); ++it) {
    if (!is_contract_field(it.key())) details[it.key()] = it.value();
  }
  return details;
}

ordered_json section_without_report(const RunFacts& facts, NullReasons& nulls) {
  ordered_json section = ordered_json::object();
  section["name"] = facts.workload;
  section["makespan_s"] = nullptr;
  section["makespan_ns"] = nullptr;
  section["verified"] = nullptr;
  section["reported_by"] = nullptr;
  section["details"] = ordered_json::object();
  // A scenario without a workload has nothing to time or verify: its nulls are expected.
  if (facts.workload != "none") {
    const std::string why = "no process sent a 'workload' report (workload " + facts.workload + ")";
    nulls["workload.makespan_s"] = why;
    nulls["workload.verified"] = why;
  }
  return section;
}

// The processes whose own 'workload' report says verified = false.
ordered_json failed_verdicts(const ReportIndex& reports) {
  ordered_json failed = ordered_json::array();
  for (const auto& [proc, report] : reports.workloads) {
    if (!report->is_object()) continue;
    auto verdict = report->find("verified");
    if (verdict != report->end() && verdict->is_boolean() && !verdict->get<bool>())
      failed.push_back(proc);
  }
  return failed;
}

}  // namespace

ordered_json workload_section(const ReportIndex& reports, const RunFacts& facts,
                              NullReasons& nulls) {
  if (reports.workload == nullptr || !reports.workload->is_object()) {
    return section_without_report(facts, nulls);
  }
  const nlohmann::json& report = *reports.workload;
  ordered_json section = ordered_json::object();
  auto name = report.find("name");
  section["name"] =
      (name != report.end() && name->is_string()) ? name->get<std::string>() : facts.workload;
  auto makespan = report.find("makespan_ns");
  if (makespan != report.end() && makespan->is_number_integer()) {
    const auto ns = makespan->get<std::int64_t>();
    section["makespan_s"] = static_cast<double>(ns) / static_cast<double>(kNsPerSec);
    section["makespan_ns"] = ns;
  } else {
    section["makespan_s"] = nullptr;
    section["makespan_ns"] = nullptr;
    nulls["workload.makespan_s"] = "the 'workload' report has no integer 'makespan_ns'";
  }
  auto verified = report.find("verified");
  if (verified != report.end() && verified->is_boolean()) {
    // Verified only when no process's verdict says otherwise: a rank that found its part
    // wrong fails the run even when another rank reported after it.
    const ordered_json failed = failed_verdicts(reports);
    section["verified"] = verified->get<bool>() && failed.empty();
    section["failed_by"] = failed;
  } else {
    section["verified"] = nullptr;
    nulls["workload.verified"] = "the 'workload' report has no boolean 'verified'";
  }
  section["reported_by"] = reports.workload_from;
  section["details"] = extra_fields(report);
  return section;
}

}  // namespace tsunagi::runner::detail
