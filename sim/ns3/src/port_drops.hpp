// Packets ns-3 dropped at a transmit port, counted for result.json (ns3.port_drops*): a device
// queue that overflowed, or the traffic control layer refusing a packet for a device whose
// queue is full. A drop costs its TCP flow a retransmission, often after the 200 ms minimum
// time-out, so a run whose times jump by ~200 ms says here where its packets went and when
// (docs/ns3.md, "Port drops").
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_set>

namespace tsunagi::sim::ns3 {

struct PortDrops {
  std::unordered_set<std::uint32_t> host_nodes;  // ns-3 ids of process nodes; others route
  std::uint64_t at_hosts = 0;    // dropped at a process node's own port (its sending stack)
  std::uint64_t at_routers = 0;  // dropped at a switch or router port
  std::int64_t first_ns = -1;    // simulated time of the first drop
};

// Watches every device queue and every node's traffic control layer of the nodes that exist
// now (call once the topology is built). `drops` must outlive the simulation.
void watch_port_drops(const std::shared_ptr<PortDrops>& drops);

}  // namespace tsunagi::sim::ns3
