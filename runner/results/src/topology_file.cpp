// DIR/topology.json: the true network for pictures (topology_file.hpp). Ground truth, like
// result.json's true groups: the report draws it, the core never sees it.
#include "tsunagi/runner/results/topology_file.hpp"

#include "tsunagi/runner/results/output_files.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/scenarios/serial.hpp"

namespace tsunagi::runner {
namespace {

using nlohmann::ordered_json;

const char* policy_name(scenario::ClusterPolicy policy) {
  switch (policy) {
    case scenario::ClusterPolicy::Open:
      return "open";
    case scenario::ClusterPolicy::Firewall:
      return "firewall";
    case scenario::ClusterPolicy::InboundFirewall:
      return "inbound_firewall";
    case scenario::ClusterPolicy::Nat:
      return "nat";
  }
  return "?";
}

int parent_index(const scenario::Network& network, const std::string& parent) {
  for (std::size_t s = 0; s < network.switches.size(); ++s)
    if (network.switches[s].name == parent) return static_cast<int>(s);
  return -1;
}

// A link's figures as graph tools take them (issue 33): bits/s and nanoseconds, one way.
ordered_json link_json(double bytes_per_second, TimeNs latency) {
  return {{"bandwidth_bps", bytes_per_second * 8}, {"latency_ns", latency}};
}

ordered_json switches_json(const scenario::Network& network) {
  const std::vector<int> cluster_of = scenario::cluster_of_switches(network);
  ordered_json switches = ordered_json::array();
  for (std::size_t s = 0; s < network.switches.size(); ++s) {
    const scenario::SwitchSpec& spec = network.switches[s];
    const int parent = parent_index(network, spec.parent);
    ordered_json entry = {{"name", spec.name}, {"parent", parent}, {"cluster", cluster_of[s]}};
    // A Dragonfly's routers have no parent: the report groups them by Dragonfly group.
    if (network.dragonfly)
      entry["group"] = scenario::router_coords(*network.dragonfly, static_cast<int>(s)).group;
    if (parent >= 0) entry["uplink"] = link_json(spec.uplink_bandwidth, spec.uplink_latency);
    if (spec.hosts > 0) entry["host_link"] = link_json(spec.host_bandwidth, spec.host_latency);
    switches.push_back(std::move(entry));
  }
  return switches;
}

ordered_json ranks_json(const scenario::Scenario& scenario) {
  const std::vector<scenario::HostSlot> hosts = scenario::enumerate_hosts(scenario.network);
  ordered_json ranks = ordered_json::array();
  for (int host : scenario::rank_to_host(scenario)) {
    const scenario::HostSlot& slot = hosts.at(static_cast<std::size_t>(host));
    ranks.push_back({{"host", slot.host}, {"switch", slot.switch_index}});
  }
  return ranks;
}

// The links between switches that are not the tree's: a Dragonfly's router links (green,
// black, blue; bandwidth times the class's parallel links) and the serial links between nodes.
ordered_json links_json(const scenario::Network& network) {
  ordered_json links = ordered_json::array();
  if (network.dragonfly) {
    for (const scenario::DragonflyLink& link : scenario::dragonfly_links(*network.dragonfly)) {
      const scenario::DragonflyLinks figures =
          scenario::link_figures(*network.dragonfly, link.kind);
      links.push_back({{"a", link.a},
                       {"b", link.b},
                       {"class", scenario::to_string(link.kind)},
                       {"link", link_json(figures.bandwidth, figures.latency)}});
    }
  }
  if (network.serial) {
    for (const scenario::SerialLink& link : scenario::serial_links(*network.serial))
      links.push_back({{"a", link.a},
                       {"b", link.b},
                       {"class", "serial"},
                       {"link", link_json(network.serial->bandwidth, network.serial->latency)}});
  }
  return links;
}

const char* kind_of(const scenario::Network& network) {
  if (network.dragonfly) return "dragonfly";
  if (network.serial) return "serial";
  return network.clusters.empty() ? "tree" : "wan";
}

}  // namespace

ordered_json topology_json(const scenario::Scenario& scenario) {
  const scenario::Network& network = scenario.network;
  ordered_json topology;
  topology["kind"] = kind_of(network);
  topology["switches"] = switches_json(network);
  topology["links"] = links_json(network);
  ordered_json clusters = ordered_json::array();
  for (const scenario::ClusterSpec& cluster : network.clusters)
    clusters.push_back({{"name", cluster.name},
                        {"policy", policy_name(cluster.policy)},
                        {"wan_link", link_json(cluster.wan_bandwidth, cluster.wan_latency)}});
  topology["clusters"] = std::move(clusters);
  topology["ranks"] = ranks_json(scenario);
  ordered_json relays = ordered_json::array();
  for (const scenario::RelaySlot& relay : scenario::relay_slots(scenario))
    relays.push_back({{"label", relay.host}, {"cluster", relay.cluster}});
  topology["relays"] = std::move(relays);
  return topology;
}

void write_topology_file(const std::filesystem::path& file, const scenario::Scenario& scenario) {
  write_text_file(file, topology_json(scenario).dump(1) + "\n");
}

}  // namespace tsunagi::runner
