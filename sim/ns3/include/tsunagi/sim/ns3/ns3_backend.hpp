// The ns-3 backend: runs the protocol core over ns-3's packet-level TCP/IP (ns-3 3.37).
//
// This is the C++20 entry point (it takes the scenario); the ns-3 code behind it is C++17 and
// sees only an Ns3Spec (ns3_spec.hpp). One call simulates one run; ns-3 keeps global state
// (defaults, random stream numbering, node list), so call run_ns3 at most once per OS process,
// as for SimGrid. See docs/ns3.md for the model and its choices.
#pragma once

#include "tsunagi/scenarios/scenario.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

// Builds the network from scenario.network, starts one process per rank (make_node) plus the
// rendezvous (make_rendezvous) at time 0, runs to completion and reports through `observer`.
runner::RunSummary run_ns3(const scenario::Scenario& scenario, runner::RunObserver& observer,
                           const Ns3Options& options = {});

// run_ns3 with other processes than the core's roles (tests drive it with scripted processes).
runner::RunSummary run_ns3_with(const scenario::Scenario& scenario, runner::RunObserver& observer,
                                const Ns3Options& options,
                                const runner::ProcessFactories& processes);

// The spec a scenario gives (throws std::invalid_argument for an unknown parent switch).
Ns3Spec spec_of(const scenario::Scenario& scenario, const Ns3Options& options = {});

// The endpoint rank `rank` (kNoRank: the rendezvous) gets in a run of `scenario`, from the
// address plan in docs/ns3.md; tests use it to address processes.
Endpoint endpoint_of(const scenario::Scenario& scenario, Rank rank);

// The endpoint of relay `relay` (index into scenario::relay_slots(scenario)).
Endpoint relay_endpoint_of(const scenario::Scenario& scenario, int relay);

}  // namespace tsunagi::sim::ns3
