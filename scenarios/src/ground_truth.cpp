// Ground truth derived from a scenario: host names, rank placement, true switch groups.
// Backends use it to build the world and the runner to score inference; the core never does.
#include <algorithm>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::scenario {
namespace {

// Host numbers are zero-padded to a width fixed per switch ("edge-h07" among 14 hosts,
// "big-h007" among 120), so names sort in host order.
std::string host_name(const std::string& switch_name, int number, int hosts_on_switch) {
  std::string digits = std::to_string(number);
  std::size_t width = std::max<std::size_t>(2, std::to_string(hosts_on_switch - 1).size());
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return switch_name + "-h" + digits;
}

}  // namespace

std::vector<HostSlot> enumerate_hosts(const Network& network) {
  std::vector<HostSlot> hosts;
  for (std::size_t s = 0; s < network.switches.size(); ++s) {
    const SwitchSpec& sw = network.switches[s];
    for (int h = 0; h < sw.hosts; ++h) {
      hosts.push_back({host_name(sw.name, h, sw.hosts), static_cast<int>(s)});
    }
  }
  return hosts;
}

int process_count(const Scenario& scenario) {
  std::int64_t hosts = 0;
  for (const SwitchSpec& sw : scenario.network.switches) hosts += sw.hosts;
  std::int64_t slots = hosts * scenario.placement.procs_per_host;
  std::int64_t wanted = scenario.placement.processes;
  return static_cast<int>(wanted > 0 ? std::min(wanted, slots) : slots);
}

std::vector<int> rank_to_host(const Scenario& scenario) {
  int per_host = std::max(1, scenario.placement.procs_per_host);
  int ranks = process_count(scenario);
  std::vector<int> host_of(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) host_of[static_cast<std::size_t>(r)] = r / per_host;
  return host_of;
}

Groups true_switch_groups(const Scenario& scenario) {
  auto hosts = enumerate_hosts(scenario.network);
  auto host_of = rank_to_host(scenario);
  std::vector<std::vector<Rank>> by_switch(scenario.network.switches.size());
  for (std::size_t r = 0; r < host_of.size(); ++r) {
    auto host = static_cast<std::size_t>(host_of[r]);
    by_switch[static_cast<std::size_t>(hosts[host].switch_index)].push_back(static_cast<Rank>(r));
  }
  // Ranks were appended in increasing order, so each group is sorted already; switches
  // without ranks (inner switches, unused hosts) form no group.
  Groups groups;
  for (auto& group : by_switch) {
    if (!group.empty()) groups.push_back(std::move(group));
  }
  std::sort(groups.begin(), groups.end(),
            [](const auto& a, const auto& b) { return a.front() < b.front(); });
  return groups;
}

SwitchTreeTruth true_switch_tree(const Scenario& scenario) {
  SwitchTreeTruth truth;
  const auto& switches = scenario.network.switches;
  for (const SwitchSpec& sw : switches) {
    int parent = -1;
    for (std::size_t i = 0; i < switches.size(); ++i)
      if (!sw.parent.empty() && switches[i].name == sw.parent) parent = static_cast<int>(i);
    truth.switch_parent.push_back(parent);
  }
  const auto hosts = enumerate_hosts(scenario.network);
  for (int host : rank_to_host(scenario))
    truth.switch_of_rank.push_back(hosts[static_cast<std::size_t>(host)].switch_index);
  return truth;
}

}  // namespace tsunagi::scenario
