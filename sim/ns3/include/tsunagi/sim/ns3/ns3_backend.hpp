// The ns-3 backend: runs the protocol core over ns-3's packet-level TCP/IP (ns-3 3.37).
//
// This header is the boundary between the C++17 ns-3 translation units and the C++20 rest of
// the program: it names no ns-3 type and compiles as either standard. One call simulates one
// run; ns-3 keeps global state (defaults, random stream numbering, node list), so call run_ns3
// at most once per OS process, as for SimGrid. See docs/ns3.md for the model and its choices.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/observer.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::sim::ns3 {

struct Ns3Options {
  // When not empty: write one pcap file per host (and one per switch port towards it) into
  // this directory, named after the host ("s.0.0-h03.pcap"). The directory must exist.
  std::string pcap_dir;
};

struct Ns3RunSummary {
  TimeNs simulated_end = 0;    // simulated time of the last process exit
  bool all_exited_ok = false;  // every process exited with ok = true
  std::string failure;         // the first failure, empty when all_exited_ok
};

// Builds the network from scenario.network, starts one process per rank (make_node) plus the
// rendezvous (make_rendezvous) at time 0, runs to completion and reports through `observer`.
Ns3RunSummary run_ns3(const scenario::Scenario& scenario, runner::RunObserver& observer,
                      const Ns3Options& options = {});

using NodeFactory = std::function<std::unique_ptr<Process>(Rank rank)>;
using RendezvousFactory = std::function<std::unique_ptr<Process>()>;

// run_ns3 with other processes than the core's roles (tests drive it with scripted processes).
Ns3RunSummary run_ns3_with(const scenario::Scenario& scenario, runner::RunObserver& observer,
                           const Ns3Options& options, const NodeFactory& make_node,
                           const RendezvousFactory& make_rendezvous);

// TCP/UDP port of the process in slot `slot` of its host (0, 1, ...). Its endpoint is
// "<host IPv4 address>:<port>". Bulk throughput probes go to port + kBulkPortOffset.
inline constexpr int kFirstPort = 7000;
// The endpoint rank `rank` (kNoRank: the rendezvous) gets in a run of `scenario`, from the
// address plan in docs/ns3.md; tests use it to address processes.
Endpoint endpoint_of(const scenario::Scenario& scenario, Rank rank);
inline constexpr int kBulkPortOffset = 10000;
inline constexpr int kMaxProcsPerHost = 1000;

}  // namespace tsunagi::sim::ns3
