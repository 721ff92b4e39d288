// The SimGrid backend: runs the protocol core on a flow-level model of the scenario's network.
//
// One call simulates one run from start to end. SimGrid allows a single Engine per OS process
// (a second one does not reset the clock), so call run_simgrid at most once per process; run
// sweeps as separate processes. See docs/simgrid.md for the platform and model choices.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/observer.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::sim::simgrid {

struct SimgridRunSummary {
  TimeNs simulated_end = 0;    // simulated time when the last event happened
  bool all_exited_ok = false;  // every process exited with ok = true (see docs/simgrid.md)
  std::string failure;         // the first failure, empty when all_exited_ok
};

// Builds the platform from scenario.network, starts one actor per rank (make_node) plus one
// rendezvous actor (make_rendezvous), runs to completion and reports through `observer`.
SimgridRunSummary run_simgrid(const scenario::Scenario& scenario, runner::RunObserver& observer);

// Makes the process that runs as rank `rank`.
using NodeFactory = std::function<std::unique_ptr<Process>(Rank rank)>;
// Makes the process that runs as the rendezvous.
using RendezvousFactory = std::function<std::unique_ptr<Process>()>;

// run_simgrid with other processes than the protocol core's roles: tests and tools use it to
// drive the backend with scripted processes. Same once-per-OS-process rule.
SimgridRunSummary run_simgrid_with(const scenario::Scenario& scenario,
                                   runner::RunObserver& observer, const NodeFactory& make_node,
                                   const RendezvousFactory& make_rendezvous);

// Endpoint of the rendezvous in every SimGrid run.
inline constexpr const char* kRendezvousEndpoint = "rendezvous:0";
// Name of the extra host the rendezvous runs on (attached to the root switch).
inline constexpr const char* kRendezvousHost = "rendezvous";

}  // namespace tsunagi::sim::simgrid
