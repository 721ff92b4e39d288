// A scenario: the ground-truth network, where processes run, protocol config, workload, seed.
// Backends read the network to build their world; the runner reads it to score inference.
// The protocol core never sees this struct (shared/DESIGN.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi::scenario {

// One switch of a switched cluster. Hosts hang off it directly; the switch hangs off `parent`.
struct SwitchSpec {
  std::string name;
  std::string parent;            // empty for the root switch
  int hosts = 0;                 // hosts attached directly to this switch
  double host_bandwidth = 125e6; // bytes/s of each host's link to this switch
  TimeNs host_latency = 5 * kNsPerUs;
  double uplink_bandwidth = 125e6;  // bytes/s of this switch's link to its parent
  TimeNs uplink_latency = 5 * kNsPerUs;
  bool operator==(const SwitchSpec&) const = default;
};

struct Network {
  // Parents are listed before their children; exactly one root.
  std::vector<SwitchSpec> switches;
  // Processes on one host talk over loopback.
  double loopback_bandwidth = 10e9;
  TimeNs loopback_latency = 0;
};

struct Placement {
  int procs_per_host = 1;
  int processes = 0;             // 0 = every host slot; otherwise the first N slots (block order)
};

struct SimgridConfig {
  std::string network_model = "CM02";  // see docs/simgrid.md for why
  double host_speed = 1e9;            // flop/s; compute phases are given in time, not flops
  // "flow": each probe sample is a real ping/pong pair of flows (shares links with everything
  // else). "route": the probe's RTT is read off the route (2 x (latency + bytes / bottleneck)),
  // the uncontended answer of the flow model, and the prober waits K x RTT. Thousands of
  // concurrent probe flows make SimGrid's max-min solver the bottleneck; see docs/simgrid.md.
  std::string rtt_probe = "flow";
};

struct Scenario {
  std::string name;
  std::string path;              // file it came from (for messages)
  std::string description;
  std::uint64_t seed = 1;
  Network network;
  Placement placement;
  ProtocolConfig protocol;       // protocol.processes and protocol.seed are filled by the loader
  SimgridConfig simgrid;
};

// ---- ground truth derived from the scenario (used by backends and the runner, never the core)

struct HostSlot {
  std::string host;              // unique host name, e.g. "s3-h07"
  int switch_index = 0;          // index into network.switches
};

// All hosts in order: switch by switch (in file order), then host by host.
std::vector<HostSlot> enumerate_hosts(const Network& network);

// Host index of each rank (block placement: ranks of one host are consecutive).
std::vector<int> rank_to_host(const Scenario& scenario);

// True switch groups: ranks grouped by the switch of their host, each sorted, ordered by their
// smallest rank (the same canonical form the core uses for inferred groups).
Groups true_switch_groups(const Scenario& scenario);

// The switch tree as parent indices into network.switches (-1 for the root), and the switch
// each rank's host hangs off. The runner scores inferred trees against it.
struct SwitchTreeTruth {
  std::vector<int> switch_parent;
  std::vector<int> switch_of_rank;
};
SwitchTreeTruth true_switch_tree(const Scenario& scenario);

// Total process count = min(placement.processes or all slots, hosts * procs_per_host).
int process_count(const Scenario& scenario);

}  // namespace tsunagi::scenario
