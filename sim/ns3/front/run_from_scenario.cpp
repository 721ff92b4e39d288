// The C++20 front of the ns-3 backend: scenario -> Ns3Spec, then the C++17 runner.
#include <stdexcept>

#include "tsunagi/model/roles.hpp"
#include "tsunagi/sim/ns3/ns3_backend.hpp"

namespace tsunagi::sim::ns3 {

Ns3Spec spec_of(const scenario::Scenario& scenario, const Ns3Options& options) {
  Ns3Spec spec;
  const auto& switches = scenario.network.switches;
  for (const scenario::SwitchSpec& sw : switches) {
    int parent = -1;
    if (!sw.parent.empty()) {
      for (std::size_t i = 0; i < spec.switches.size() && parent < 0; ++i)
        if (switches[i].name == sw.parent) parent = static_cast<int>(i);
      if (parent < 0)
        throw std::invalid_argument("ns3: switch " + sw.name + ": parent " + sw.parent +
                                    " is not listed before it");
    }
    spec.switches.push_back(Ns3Switch{sw.name, parent, sw.hosts, sw.host_bandwidth, sw.host_latency,
                                      sw.uplink_bandwidth, sw.uplink_latency});
  }
  for (const scenario::HostSlot& slot : scenario::enumerate_hosts(scenario.network))
    spec.hosts.push_back(Ns3Host{slot.host, slot.switch_index});
  spec.rank_host = scenario::rank_to_host(scenario);
  spec.procs_per_host = scenario.placement.procs_per_host;
  spec.seed = scenario.seed;
  spec.protocol = scenario.protocol;
  spec.protocol.processes = scenario::process_count(scenario);
  spec.options = options;
  return spec;
}

Ns3RunSummary run_ns3_with(const scenario::Scenario& scenario, runner::RunObserver& observer,
                           const Ns3Options& options, const NodeFactory& make_node,
                           const RendezvousFactory& make_rendezvous) {
  return run_ns3_spec(spec_of(scenario, options), observer, make_node, make_rendezvous);
}

Ns3RunSummary run_ns3(const scenario::Scenario& scenario, runner::RunObserver& observer,
                      const Ns3Options& options) {
  return run_ns3_with(
      scenario, observer, options, [](Rank) { return make_node(); },
      [] { return make_rendezvous(); });
}

Endpoint endpoint_of(const scenario::Scenario& scenario, Rank rank) {
  return endpoint_in(spec_of(scenario), rank);
}

}  // namespace tsunagi::sim::ns3
