// run_ns3: one simulated run from topology to summary.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <vector>

#include <ns3/simulator.h>

#include "ns3_defaults.hpp"
#include "process_host.hpp"
#include "topology.hpp"
#include "tsunagi/model/roles.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"
#include "world.hpp"

namespace tsunagi::sim::ns3 {
namespace {

// ns-3's defaults, random stream numbering and node list are global: one run per process
// keeps a run's result independent of what ran before it.
void claim_the_simulator() {
  static bool claimed = false;
  if (claimed)
    throw std::logic_error("run_ns3 runs once per OS process; start a new process per run");
  claimed = true;
}

// What the routers' filters did, summed over clusters (WAN scenarios only).
void report_filters(const Topology& topology, runner::RunObserver& observer) {
  if (topology.filters.empty()) return;
  double dropped = 0, rejected = 0, rate_limited = 0, busiest = 0;
  for (const auto& filter : topology.filters) {
    busiest = std::max(busiest, static_cast<double>(filter->connections()));
    dropped += static_cast<double>(filter->dropped());
    rejected += static_cast<double>(filter->rejected());
    rate_limited += static_cast<double>(filter->rate_limited());
  }
  observer.on_backend_count("wan.blocked_dropped", dropped);
  observer.on_backend_count("wan.blocked_rejected", rejected);
  observer.on_backend_count("wan.syns_rate_limited", rate_limited);
  // As SimGrid's: connections opened across the busiest router (each counts at both routers).
  observer.on_backend_count("wan.router_connections_max", busiest);
}

// [[faults]]: the process is killed as a kernel would end it: listeners closed, connections
// closed (FIN after queued bytes), its core gone. The exit is ok (the kill was planned) with a
// reason saying so; the processes that lose it see the closes and report what they could not
// deliver.
void schedule_faults(const Ns3Spec& spec, World& world,
                     const std::vector<std::unique_ptr<ProcessHost>>& hosts) {
  for (const Ns3Fault& fault : spec.faults) {
    ProcessHost* victim = nullptr;
    for (const auto& host : hosts)
      if (world.process(host->index()).label == fault.kill) victim = host.get();
    if (victim == nullptr)
      throw std::invalid_argument("ns3: [[faults]] kill = \"" + fault.kill +
                                  "\" names no process of this run");
    const std::string reason =
        "killed by the backend: fault at " + std::to_string(fault.at) + " ns";
    ::ns3::Simulator::ScheduleWithContext(victim->node_id(), ::ns3::NanoSeconds(fault.at),
                                          [victim, reason] {
                                            victim->stop(ExitCmd{true, reason});
                                          });
  }
}

}  // namespace

Ns3RunSummary run_ns3_spec(const Ns3Spec& spec, runner::RunObserver& observer,
                           const NodeFactory& make_node, const RendezvousFactory& make_rendezvous,
                           const RelayFactory& make_relay_process) {
  claim_the_simulator();
  apply_ns3_defaults(spec.seed);
  apply_syn_timing(spec.syn_rto, spec.syn_retries);
  const Topology topology = build_topology(spec);
  World world(spec, observer, topology);

  std::vector<std::unique_ptr<ProcessHost>> hosts;
  hosts.reserve(static_cast<std::size_t>(world.process_count()));
  const int rendezvous = world.rendezvous_index();
  hosts.push_back(std::make_unique<ProcessHost>(world, rendezvous, make_rendezvous()));
  for (int index = 0; index < world.rank_count(); ++index)
    hosts.push_back(
        std::make_unique<ProcessHost>(world, index, make_node(world.process(index).rank)));
  for (int index = world.rank_count(); index < rendezvous; ++index) {
    const std::string& host = world.process(index).host;
    hosts.push_back(std::make_unique<ProcessHost>(
        world, index, make_relay_process ? make_relay_process(host) : make_relay()));
  }
  // Everyone starts at time 0, the rendezvous first so it listens before any rank connects.
  // The context (node id) is what ns-3's logs and pcap tracing attribute events to.
  for (const auto& host : hosts) {
    ::ns3::Simulator::ScheduleWithContext(host->node_id(), ::ns3::Seconds(0), &ProcessHost::start,
                                          host.get());
  }

  schedule_faults(spec, world, hosts);

  ::ns3::Simulator::Run();
  Ns3RunSummary summary;
  summary.simulated_end = world.finish(::ns3::Simulator::Now().GetNanoSeconds());
  report_filters(topology, observer);
  summary.all_exited_ok = world.all_exited_ok();
  summary.failure = world.failure();
  // Sockets may call back while ns-3 tears down: the hosts go after the simulator.
  ::ns3::Simulator::Destroy();
  hosts.clear();
  return summary;
}

}  // namespace tsunagi::sim::ns3
