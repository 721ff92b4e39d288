// Ground truth of WAN scenarios (paper 001): which cluster a switch, host or rank belongs to,
// what the cluster policies do to a connection attempt, and where relay daemons run. Backends
// build routers and filters from it; the runner checks connectivity against it.
#include <algorithm>
#include <map>
#include <stdexcept>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::scenario {
namespace {

bool allows(const ClusterSpec& cluster, const std::string& other) {
  return std::find(cluster.allow.begin(), cluster.allow.end(), other) != cluster.allow.end();
}

ConnectOutcome blocked(const ClusterSpec& by) {
  return by.firewall_rejects ? ConnectOutcome::Refuse : ConnectOutcome::Drop;
}

}  // namespace

std::vector<int> cluster_of_switches(const Network& network) {
  std::vector<int> cluster(network.switches.size(), -1);
  if (network.clusters.empty()) return cluster;
  std::map<std::string, int> index_of_switch;
  for (std::size_t s = 0; s < network.switches.size(); ++s)
    index_of_switch[network.switches[s].name] = static_cast<int>(s);
  for (std::size_t c = 0; c < network.clusters.size(); ++c) {
    auto it = index_of_switch.find(network.clusters[c].root_switch);
    if (it == index_of_switch.end())
      throw std::invalid_argument("cluster " + network.clusters[c].name + " names root switch " +
                                  network.clusters[c].root_switch + " which does not exist");
    cluster[static_cast<std::size_t>(it->second)] = static_cast<int>(c);
  }
  // Parents come before children, so one pass hands every switch its parent's cluster.
  for (std::size_t s = 0; s < network.switches.size(); ++s) {
    if (cluster[s] >= 0 || network.switches[s].parent.empty()) continue;
    auto parent = index_of_switch.find(network.switches[s].parent);
    if (parent != index_of_switch.end())
      cluster[s] = cluster[static_cast<std::size_t>(parent->second)];
  }
  return cluster;
}

ConnectOutcome policy_outcome(const Network& network, Place from, Place to) {
  if (from.cluster < 0 || to.cluster < 0 || from.cluster == to.cluster)
    return ConnectOutcome::Accept;
  const ClusterSpec& src = network.clusters.at(static_cast<std::size_t>(from.cluster));
  const ClusterSpec& dst = network.clusters.at(static_cast<std::size_t>(to.cluster));
  // Leaving the source cluster: only a two-way firewall stops outbound attempts.
  if (src.policy == ClusterPolicy::Firewall && !allows(src, dst.name)) return blocked(src);
  switch (dst.policy) {
    case ClusterPolicy::Open:
      return ConnectOutcome::Accept;
    case ClusterPolicy::Firewall:
    case ClusterPolicy::InboundFirewall:
      return allows(dst, src.name) ? ConnectOutcome::Accept : blocked(dst);
    case ClusterPolicy::Nat:
      // A private address is not routed on the WAN: the SYN is lost. The gateway is public.
      return to.gateway ? ConnectOutcome::Accept : ConnectOutcome::Drop;
  }
  return ConnectOutcome::Accept;
}

std::vector<RelaySlot> relay_slots(const Scenario& scenario) {
  std::vector<RelaySlot> slots;
  const auto& clusters = scenario.network.clusters;
  for (std::size_t c = 0; c < clusters.size(); ++c) {
    const bool gateway = clusters[c].relay_at == RelayPlacement::Gateway;
    for (int i = 0; i < clusters[c].relays; ++i) {
      slots.push_back({clusters[c].name + (gateway ? "-gw" : "-relay") + std::to_string(i),
                       static_cast<int>(c), i, clusters[c].relay_at});
    }
  }
  return slots;
}

std::vector<int> rank_clusters(const Scenario& scenario) {
  const std::vector<int> of_switch = cluster_of_switches(scenario.network);
  const std::vector<HostSlot> hosts = enumerate_hosts(scenario.network);
  std::vector<int> clusters;
  for (int host : rank_to_host(scenario)) {
    const int sw = hosts[static_cast<std::size_t>(host)].switch_index;
    clusters.push_back(of_switch[static_cast<std::size_t>(sw)]);
  }
  return clusters;
}

}  // namespace tsunagi::scenario
