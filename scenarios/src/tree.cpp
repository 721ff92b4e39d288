// The regular tree generator behind [network.tree].
#include <limits>

#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::scenario {

std::int64_t tree_switch_count(const TreeSpec& spec) {
  // Saturates instead of overflowing, so absurd trees are reported as too big, not as small.
  constexpr std::int64_t kCap = std::numeric_limits<std::int64_t>::max() / 4;
  std::int64_t total = 1;
  std::int64_t width = 1;
  for (const TreeLevel& level : spec.levels) {
    if (level.fanout <= 0) return total;
    width = width > kCap / level.fanout ? kCap : width * level.fanout;
    total = total > kCap - width ? kCap : total + width;
  }
  return total;
}

std::vector<SwitchSpec> generate_tree(const TreeSpec& spec) {
  SwitchSpec root;
  root.name = "s";
  root.host_bandwidth = spec.host_bandwidth;
  root.host_latency = spec.host_latency;
  std::vector<SwitchSpec> switches{root};
  // Breadth first: one level at a time, so every parent precedes its children and the leaves
  // (all on the last level) come out left to right, which fixes the order of hosts and ranks.
  std::size_t level_begin = 0;
  for (const TreeLevel& level : spec.levels) {
    std::size_t level_end = switches.size();
    for (std::size_t p = level_begin; p < level_end; ++p) {
      for (int c = 0; c < level.fanout; ++c) {
        SwitchSpec child;
        child.name = switches[p].name + "." + std::to_string(c);
        child.parent = switches[p].name;
        child.host_bandwidth = spec.host_bandwidth;
        child.host_latency = spec.host_latency;
        child.uplink_bandwidth = level.uplink_bandwidth;
        child.uplink_latency = level.uplink_latency;
        switches.push_back(std::move(child));
      }
    }
    level_begin = level_end;
  }
  for (std::size_t i = level_begin; i < switches.size(); ++i) {
    switches[i].hosts = spec.hosts_per_leaf;
  }
  return switches;
}

}  // namespace tsunagi::scenario
