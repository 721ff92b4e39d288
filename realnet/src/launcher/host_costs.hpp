// Host costs on realnet (issue 32): send_overhead, receive_overhead and copy_bandwidth model
// what a machine's software costs per message, and on realnet the machine pays them itself.
// Adding them would count them twice, so the daemons run with the three at 0; the launcher
// says so once on stderr and the run records what it left out (result.json
// host_costs_not_added, from run.json so that `tsunagi collect` writes it too). relay,
// select_per_connection and connect are still added, as the timed waits they always were.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/model/config.hpp"
#include "tsunagi/runner/driver/observer.hpp"

namespace tsunagi::realnet {

// The --set overrides that zero the three for a daemon; empty when they are 0 already.
std::vector<std::string> host_cost_zeroing(const CostConfig& costs);

// The one stderr line; "" when there is nothing to leave out.
std::string host_costs_note(const CostConfig& costs);

// What the run left out, as JSON for run.json (null when nothing), and back as backend counts
// host_costs_not_added.* (written at that path in result.json).
nlohmann::json host_costs_json(const CostConfig& costs);
void report_host_costs(const nlohmann::json& left_out, runner::RunObserver& observer);

}  // namespace tsunagi::realnet
