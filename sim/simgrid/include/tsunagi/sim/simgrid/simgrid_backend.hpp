// The SimGrid backend: runs the protocol core on a flow-level model of the scenario's network.
//
// One call simulates one run from start to end. SimGrid allows a single Engine per OS process
// (a second one does not reset the clock), so call run_simgrid at most once per process; run
// sweeps as separate processes. See docs/simgrid.md for the platform and model choices.
#pragma once

#include <memory>
#include <string>

#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/runner/driver/process_driver.hpp"
#include "tsunagi/runner/driver/run_summary.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::sim::simgrid {

// What a run may ask of SimGrid besides the scenario.
struct SimgridOptions {
  // SimGrid's own Paje trace of the run (hosts, links, their use over time) goes to this file;
  // empty: no trace. Read it with pj_dump (Debian: pajeng) or ViTE (docs/simgrid.md).
  std::string paje_file;
};

// Builds the platform from scenario.network, starts one actor per rank (make_node) plus one
// rendezvous actor (make_rendezvous), runs to completion and reports through `observer`.
runner::RunSummary run_simgrid(const scenario::Scenario& scenario, runner::RunObserver& observer,
                               const SimgridOptions& options = {});

// run_simgrid with other processes than the protocol core's roles: tests and tools use it to
// drive the backend with scripted processes. Same once-per-OS-process rule.
runner::RunSummary run_simgrid_with(const scenario::Scenario& scenario,
                                    runner::RunObserver& observer,
                                    const runner::ProcessFactories& processes,
                                    const SimgridOptions& options = {});

// Endpoint of the rendezvous in every SimGrid run.
inline constexpr const char* kRendezvousEndpoint = "rendezvous:0";
// Name of the extra host the rendezvous runs on (attached to the root switch).
inline constexpr const char* kRendezvousHost = "rendezvous";

}  // namespace tsunagi::sim::simgrid
