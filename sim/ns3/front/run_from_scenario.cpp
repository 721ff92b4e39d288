// The C++20 front of the ns-3 backend: scenario -> Ns3Spec, then the C++17 runner.
#include <algorithm>
#include <stdexcept>

#include "tsunagi/model/roles.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/scenarios/serial.hpp"
#include "tsunagi/sim/ns3/ns3_backend.hpp"

namespace tsunagi::sim::ns3 {

namespace {

int cluster_index(const scenario::Network& network, const std::string& name) {
  for (std::size_t c = 0; c < network.clusters.size(); ++c)
    if (network.clusters[c].name == name) return static_cast<int>(c);
  throw std::invalid_argument("ns3: no cluster named " + name);
}

// Long fat WANs (issue 15): each site's stack towards every cluster, the pair links, and the
// slow stacks' rate limits on their hosts' links.
void add_site_stacks(const scenario::Network& network, Ns3Spec& spec) {
  const int sites = static_cast<int>(network.clusters.size());
  for (int c = 0; c < sites; ++c) {
    const scenario::SiteTcp& tcp = network.clusters[static_cast<std::size_t>(c)].tcp;
    Ns3SiteTcp& out = spec.clusters[static_cast<std::size_t>(c)].tcp;
    for (int peer = 0; peer < sites; ++peer) {
      const scenario::PeerBuffers buffers = scenario::stack_buffers(network, c, peer);
      out.send_to.push_back(buffers.send);
      out.recv_from.push_back(buffers.recv);
    }
    out.window_scaling = tcp.window_scaling;
    out.sack = tcp.sack;
    out.rate_limit = tcp.rate_limit;
    if (tcp.rate_limit <= 0) continue;
    for (Ns3Switch& sw : spec.switches)
      if (sw.cluster == c) sw.host_bandwidth = std::min(sw.host_bandwidth, tcp.rate_limit);
  }
  if (!scenario::has_site_rtt(network)) return;
  for (int a = 0; a < sites; ++a) {
    for (int b = a + 1; b < sites; ++b) {
      const scenario::ClusterSpec& ca = network.clusters[static_cast<std::size_t>(a)];
      const scenario::ClusterSpec& cb = network.clusters[static_cast<std::size_t>(b)];
      const double bandwidth =
          std::min({ca.wan_bandwidth, cb.wan_bandwidth, network.backbone.bandwidth});
      const TimeNs latency =
          ca.wan_latency + scenario::backbone_latency(network, a, b) + cb.wan_latency;
      spec.site_links.push_back(Ns3SwitchLink{a, b, bandwidth, latency});
    }
  }
}

// WAN scenarios: clusters, relays, the rendezvous's cluster and SYN timing (plain C++17 data).
void add_clusters(const scenario::Scenario& scenario, Ns3Spec& spec) {
  const scenario::Network& network = scenario.network;
  const std::vector<int> cluster_of = scenario::cluster_of_switches(network);
  for (std::size_t s = 0; s < spec.switches.size(); ++s) spec.switches[s].cluster = cluster_of[s];
  for (const scenario::ClusterSpec& c : network.clusters) {
    Ns3Cluster cluster;
    cluster.name = c.name;
    for (std::size_t s = 0; s < network.switches.size(); ++s)
      if (network.switches[s].name == c.root_switch) cluster.root_switch = static_cast<int>(s);
    cluster.policy = static_cast<Ns3Policy>(static_cast<int>(c.policy));
    for (const std::string& other : c.allow) cluster.allow.push_back(cluster_index(network, other));
    cluster.rejects = c.firewall_rejects;
    cluster.connect_per_second = c.connect_rate.per_second;
    cluster.connect_burst = c.connect_rate.burst;
    cluster.wan_bandwidth = c.wan_bandwidth;
    cluster.wan_latency = c.wan_latency;
    spec.clusters.push_back(cluster);
  }
  add_site_stacks(network, spec);
  for (const scenario::RelaySlot& slot : scenario::relay_slots(scenario))
    spec.relays.push_back(
        Ns3Relay{slot.host, slot.cluster, slot.at == scenario::RelayPlacement::Gateway});
  if (!network.clusters.empty())
    spec.rendezvous_cluster =
        network.rendezvous_cluster.empty() ? 0 : cluster_index(network, network.rendezvous_cluster);
  spec.syn_rto = network.syn.syn_rto;
  spec.syn_retries = network.syn.syn_retries;
  for (const scenario::FaultSpec& fault : scenario.faults)
    spec.faults.push_back(runner::PlannedKill{fault.kill, fault.at});
}

// Serial links (issue 14): every node's card a switch, every serial link a point-to-point link,
// the next node on serial_path as the next hop (the nodes forward, as in SimGrid's routes).
void add_serial_mesh(const scenario::SerialSpec& serial, Ns3Spec& spec) {
  for (const scenario::SerialLink& link : scenario::serial_links(serial))
    spec.mesh.links.push_back(Ns3SwitchLink{link.a, link.b, serial.bandwidth, serial.latency});
  if (spec.mesh.links.empty()) return;  // a shared segment: one switch
  spec.mesh.fifo_bytes = serial.fifo_bytes;
  const auto nodes = static_cast<std::size_t>(serial.nodes);
  spec.mesh.next.assign(nodes, std::vector<int>(nodes, -1));
  for (std::size_t a = 0; a < nodes; ++a)
    for (std::size_t b = 0; b < nodes; ++b)
      if (a != b)
        spec.mesh.next[a][b] =
            scenario::serial_next_node(serial, static_cast<int>(a), static_cast<int>(b));
}

// A Dragonfly: its router links and SimGrid's routes as a next-hop table (plain C++17 data).
void add_mesh(const scenario::Network& network, Ns3Spec& spec) {
  if (network.serial) return add_serial_mesh(*network.serial, spec);
  if (!network.dragonfly) return;
  const scenario::DragonflySpec& dragonfly = *network.dragonfly;
  for (const scenario::DragonflyLink& link : scenario::dragonfly_links(dragonfly)) {
    const scenario::DragonflyLinks figures = scenario::link_figures(dragonfly, link.kind);
    spec.mesh.links.push_back(Ns3SwitchLink{link.a, link.b, figures.bandwidth, figures.latency});
  }
  const auto routers = static_cast<std::size_t>(scenario::router_count(dragonfly));
  spec.mesh.next.assign(routers, std::vector<int>(routers, -1));
  for (std::size_t a = 0; a < routers; ++a)
    for (std::size_t b = 0; b < routers; ++b)
      if (a != b)
        spec.mesh.next[a][b] =
            scenario::dragonfly_next_router(dragonfly, static_cast<int>(a), static_cast<int>(b));
}

// [network.factors] (docs/calibration.md) on every link of the spec; the loopback is no link
// here. A site pair is one link in ns-3 (as in realnet: one delay line), so it gets
// latency_per_link once.
void apply_factors(const scenario::NetworkFactors& f, Ns3Spec& spec) {
  if (f == scenario::NetworkFactors{}) return;
  const auto link = [&f](double& bandwidth, TimeNs& latency) {
    bandwidth = scenario::factored_bandwidth(f, bandwidth);
    latency = scenario::factored_latency(f, latency);
  };
  for (Ns3Switch& sw : spec.switches) {
    link(sw.host_bandwidth, sw.host_latency);
    link(sw.uplink_bandwidth, sw.uplink_latency);
  }
  for (Ns3Cluster& c : spec.clusters) link(c.wan_bandwidth, c.wan_latency);
  for (Ns3SwitchLink& l : spec.site_links) link(l.bandwidth, l.latency);
  for (Ns3SwitchLink& l : spec.mesh.links) link(l.bandwidth, l.latency);
}

}  // namespace

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
                                      sw.uplink_bandwidth, sw.uplink_latency, -1});
  }
  add_clusters(scenario, spec);
  add_mesh(scenario.network, spec);
  spec.shared_segment =
      scenario.network.serial && scenario.network.serial->medium == scenario::SerialMedium::Shared;
  for (const scenario::HostSlot& slot : scenario::enumerate_hosts(scenario.network))
    spec.hosts.push_back(Ns3Host{slot.host, slot.switch_index});
  spec.rank_host = scenario::rank_to_host(scenario);
  spec.procs_per_host = scenario.placement.procs_per_host;
  spec.seed = scenario.seed;
  spec.protocol = scenario.protocol;
  spec.protocol.processes = scenario::process_count(scenario);
  spec.options = options;
  spec.route_probes = scenario.ns3.rtt_probe == "route";
  spec.linux_reno = scenario.ns3.congestion == "reno";
  apply_factors(scenario.network.factors, spec);
  return spec;
}

runner::RunSummary run_ns3_with(const scenario::Scenario& scenario, runner::RunObserver& observer,
                                const Ns3Options& options,
                                const runner::ProcessFactories& processes) {
  return run_ns3_spec(spec_of(scenario, options), observer, processes);
}

runner::RunSummary run_ns3(const scenario::Scenario& scenario, runner::RunObserver& observer,
                           const Ns3Options& options) {
  return run_ns3_with(scenario, observer, options, runner::core_roles());
}

Endpoint endpoint_of(const scenario::Scenario& scenario, Rank rank) {
  return endpoint_in(spec_of(scenario), rank);
}

Endpoint relay_endpoint_of(const scenario::Scenario& scenario, int relay) {
  return relay_endpoint_in(spec_of(scenario), relay);
}

}  // namespace tsunagi::sim::ns3
