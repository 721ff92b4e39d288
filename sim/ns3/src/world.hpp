// What all processes of one ns-3 run share: the process table (runner/process_table.hpp) and
// where each process sits in the network (node, address, port). ns-3 runs one event at a time,
// so plain shared state is safe and deterministic.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <ns3/ipv4-address.h>
#include <ns3/node.h>
#include <ns3/ptr.h>

#include "route_probes.hpp"
#include "topology.hpp"
#include "tsunagi/runner/driver/process_table.hpp"

namespace tsunagi::sim::ns3 {

class ProcessHost;

// What ns-3 needs of a process beside its row in the process table (same index).
struct NodeSlot {
  ::ns3::Ptr<::ns3::Node> node;
  ::ns3::Ipv4Address address;
  std::uint16_t port = 0;
  ProcessHost* process = nullptr;  // while its host object lives
  int cluster = -1;                // its site (index into the spec's clusters), -1 without
  int host = -1;                   // a rank's host (index into the spec's hosts), -1 otherwise
  int switch_index = -1;           // and that host's switch
};

class World {
 public:
  World(const Ns3Spec& spec, runner::RunObserver& observer, const Topology& topology);

  // Processes: ranks in order, then the rendezvous, then the relays (spec.relays order).
  runner::ProcessTable& table() { return table_; }
  int process_count() const { return table_.size(); }
  bool exited(int index) const { return table_.exited(index); }
  NodeSlot& slot(int index) { return slots_[static_cast<std::size_t>(index)]; }
  // Index of the process whose endpoint this is, or -1.
  int find(const Endpoint& endpoint) const { return table_.find(endpoint); }
  // Whether the address part of `endpoint` ("<address>:<port>") is a process's node's address.
  bool is_address_of_run(const Endpoint& endpoint) const;

  // The TCP stack of cluster `cluster` (issue 15), or nullptr without clusters.
  const Ns3SiteTcp* site_tcp(int cluster) const;
  // The cluster of the process at `address`, -1 when none.
  int cluster_at(::ns3::Ipv4Address address) const;

  // [ns3] rtt_probe = "route": the round trip of a probe of `bytes` from process `from` to `to`
  // read off the route, or -1 when it must be measured (packet probes, or not two ranks of two
  // hosts: a process's own host and the rendezvous or relays are measured).
  TimeNs route_rtt(int from, int to, std::uint32_t bytes) const;

  // Records an exit; when everyone has exited, the simulation stops (the rendezvous releases
  // everyone at the end of the run, so nobody waits for a backend).
  void on_exited();

 private:
  void add_process(runner::ProcessRow row, const TopologyHost& host, int slot, int cluster);

  runner::ProcessTable table_;
  std::vector<NodeSlot> slots_;       // parallel to the table's rows
  std::vector<Ns3SiteTcp> site_tcp_;  // by cluster
  std::optional<RouteTable> routes_;  // [ns3] rtt_probe = "route"; none: packet probes
};

}  // namespace tsunagi::sim::ns3
