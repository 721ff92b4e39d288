// Private to the result builder: the sections of result.json that come from the processes'
// ReportCmds (see the contract in docs/result-schema.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/runner/results/result.hpp"

namespace tsunagi::runner::detail {

// Dotted key -> why it is null. Several keys usually share one cause, so problems are later
// grouped by cause rather than listed key by key.
using NullReasons = std::map<std::string, std::string>;

// The last report of each kind the result needs. Pointers into the recorder.
struct ReportIndex {
  std::vector<const nlohmann::json*> nodes;  // by rank; nullptr = that rank never reported
  std::vector<std::string> missing_nodes;    // labels of the ranks that never reported
  const nlohmann::json* inference = nullptr;
  std::string inference_from;
  const nlohmann::json* workload = nullptr;
  std::string workload_from;
  // Every process's last 'workload' report, in label order: each rank that judges the
  // workload has its say (one failed verdict fails the run, whoever reported last).
  std::map<std::string, const nlohmann::json*> workloads;
};

// The inference section's verdict: problems when inferred groups (or the tree) are wrong
// where the scenario says they must be right.
std::vector<std::string> inference_problems(const nlohmann::ordered_json& section);

ReportIndex index_reports(const Recorder& recorder, int processes);

nlohmann::ordered_json inference_section(const ReportIndex& reports, const RunFacts& facts,
                                         NullReasons& nulls);
// Adds tree_correct / tree_root_matches when the inference report carries a tree.
void score_tree(const nlohmann::json& report, const RunFacts& facts,
                nlohmann::ordered_json& section);
nlohmann::ordered_json connections_section(const ReportIndex& reports, NullReasons& nulls);
nlohmann::ordered_json messages_section(const ReportIndex& reports, NullReasons& nulls);
nlohmann::ordered_json workload_section(const ReportIndex& reports, const RunFacts& facts,
                                        NullReasons& nulls);

// The ordered rank pairs the connectivity reports list under `field` ("reached", "timed_out").
using RankPair = std::pair<Rank, Rank>;
std::set<RankPair> connectivity_pairs(const Recorder& recorder, const char* field);

// [[faults]] that fired (fault_losses.cpp): the labels whose exit says the scenario killed them.
// A fault declared for a time the run never reached killed nothing and explains nothing.
std::set<std::string> killed_by_faults(const Recorder& recorder);
// Losses nothing explains: lost messages when no process was killed, and timed-out pairs of
// which neither rank was killed (unless a relay or the rendezvous was: every path crosses them).
std::vector<std::string> loss_problems(const nlohmann::ordered_json& result,
                                       const Recorder& recorder,
                                       const std::set<std::string>& killed);
// Whether the connectivity verdict's failure is all explained by what `killed` took with it.
bool connectivity_failure_explained(const Recorder& recorder, const std::set<std::string>& killed);

// Paper 001: connectivity against the policies, relay paths, WAN connections per router.
nlohmann::ordered_json relay_section(const Recorder& recorder, const RunFacts& facts);
// Paper 002: the multicast series and every rank's counts (null without a multicast run), and
// the problems they show (pieces at non-members, refusals, unfinished multicasts).
nlohmann::ordered_json multicast_section(const Recorder& recorder);
std::vector<std::string> multicast_problems(const nlohmann::ordered_json& section, int processes);
// Paper 003: link-memory counts of every rank, page faults per policy (null without LMMC).
nlohmann::ordered_json lmmc_section(const Recorder& recorder);
std::vector<std::string> lmmc_problems(const nlohmann::ordered_json& section, int processes);

// Issue 15 (window_sections.cpp): the socket buffers the core set, summed over the nodes (null
// without window fields), and paper 004's indices (null without an indices run).
nlohmann::ordered_json windows_section(const ReportIndex& reports);
nlohmann::ordered_json indices_section(const Recorder& recorder);
// When the last node's static connections settled (time to full connectivity).
nlohmann::ordered_json overlay_section(const ReportIndex& reports);

// A non-negative integer field of a report, or nullopt when absent or of another type.
std::optional<std::uint64_t> get_count(const nlohmann::json& report, const char* field);

// A description of the node reports that are missing or lack `field`; empty when all nodes
// reported it as a non-negative integer.
std::string node_field_gap(const ReportIndex& reports, const char* field);

}  // namespace tsunagi::runner::detail
