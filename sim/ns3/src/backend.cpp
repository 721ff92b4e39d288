// run_ns3: one simulated run from topology to summary.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

#include <ns3/simulator.h>

#include "ns3_defaults.hpp"
#include "port_drops.hpp"
#include "process_host.hpp"
#include "topology.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"
#include "world.hpp"

namespace tsunagi::sim::ns3 {
namespace {

// What the routers' filters did, summed over clusters (WAN scenarios only).
void report_filters(const Topology& topology, runner::ProcessTable& table) {
  if (topology.filters.empty()) return;
  double dropped = 0, rejected = 0, rate_limited = 0, busiest = 0;
  for (const auto& filter : topology.filters) {
    busiest = std::max(busiest, static_cast<double>(filter->connections()));
    dropped += static_cast<double>(filter->dropped());
    rejected += static_cast<double>(filter->rejected());
    rate_limited += static_cast<double>(filter->rate_limited());
  }
  table.count("wan.blocked_dropped", dropped);
  table.count("wan.blocked_rejected", rejected);
  table.count("wan.syns_rate_limited", rate_limited);
  // As SimGrid's: connections opened across the busiest router (each counts at both routers).
  table.count("wan.router_connections_max", busiest);
}

// What the serial links' FIFO queues did (serial networks only; docs/lmmc.md, "FIFO depth").
void report_serial_fifos(const Topology& topology, runner::ProcessTable& table) {
  if (!topology.serial_fifos) return;
  table.count("serial.fifo_bytes", static_cast<double>(topology.serial_fifos->depth_bytes));
  table.count("serial.queue_peak_bytes", static_cast<double>(topology.serial_fifos->peak_bytes));
  table.count("serial.held_frames", static_cast<double>(topology.serial_fifos->held_frames));
  table.count("serial.longest_hold_ns",
              static_cast<double>(topology.serial_fifos->longest_hold_ns));
  table.count("serial.queue_drops", static_cast<double>(topology.serial_fifos->drops));
}

// Packets dropped at transmit ports (every network): where, and when the first went.
void report_port_drops(const PortDrops& drops, runner::ProcessTable& table) {
  table.count("ns3.port_drops_at_hosts", static_cast<double>(drops.at_hosts));
  table.count("ns3.port_drops_at_routers", static_cast<double>(drops.at_routers));
  if (drops.first_ns >= 0)
    table.count("ns3.first_port_drop_s", static_cast<double>(drops.first_ns) * 1e-9);
}

std::shared_ptr<PortDrops> watch_drops(const Topology& topology) {
  auto drops = std::make_shared<PortDrops>();
  for (const TopologyHost& host : topology.hosts) drops->host_nodes.insert(host.node->GetId());
  for (const TopologyHost& relay : topology.relays) drops->host_nodes.insert(relay.node->GetId());
  drops->host_nodes.insert(topology.rendezvous.node->GetId());
  watch_port_drops(drops);
  return drops;
}

}  // namespace

runner::RunSummary run_ns3_spec(const Ns3Spec& spec, runner::RunObserver& observer,
                                const runner::ProcessFactories& processes) {
  // ns-3's defaults, random stream numbering and node list are global: one run per process
  // keeps a run's result independent of what ran before it.
  runner::claim_world_once("run_ns3");
  apply_ns3_defaults(spec.seed);
  apply_syn_timing(spec.syn_rto, spec.syn_retries);
  if (!spec.site_links.empty()) apply_site_queues();
  if (spec.linux_reno) apply_linux_reno();
  const Topology topology = build_topology(spec);
  const std::shared_ptr<PortDrops> drops = watch_drops(topology);
  World world(spec, observer, topology);

  std::vector<std::unique_ptr<ProcessHost>> hosts;
  hosts.reserve(static_cast<std::size_t>(world.process_count()));
  // Everyone starts at time 0, the rendezvous first so it listens before any rank connects,
  // relays last. The context (node id) is what ns-3's logs and pcap tracing attribute events to.
  const int rendezvous = world.table().rendezvous_index();
  auto add_host = [&](int index) {
    hosts.push_back(
        std::make_unique<ProcessHost>(world, index, processes.make(world.table().row(index))));
    ::ns3::Simulator::ScheduleWithContext(hosts.back()->node_id(), ::ns3::Seconds(0),
                                          &ProcessHost::start, hosts.back().get());
  };
  add_host(rendezvous);
  for (int index = 0; index < world.process_count(); ++index)
    if (index != rendezvous) add_host(index);

  ::ns3::Simulator::Run();
  runner::ProcessTable& table = world.table();
  report_filters(topology, table);
  report_serial_fifos(topology, table);
  report_port_drops(*drops, table);
  const runner::RunSummary summary = table.finish(::ns3::Simulator::Now().GetNanoSeconds());
  // Sockets may call back while ns-3 tears down: the hosts go after the simulator.
  ::ns3::Simulator::Destroy();
  hosts.clear();
  return summary;
}

}  // namespace tsunagi::sim::ns3
