// The random switched-tree generator behind [network.random_tree]: seeded, with ranges for
// depth, fan-out and hosts per leaf, and per-level link speeds drawn from lists.
#include <deque>

#include "tsunagi/model/rng.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::scenario {
namespace {

int uniform_in(Rng& rng, int low, int high) {
  return low + static_cast<int>(rng.uniform(static_cast<std::uint64_t>(high - low + 1)));
}

template <class T>
T pick(Rng& rng, const std::vector<T>& choices) {
  return choices[static_cast<std::size_t>(rng.uniform(choices.size()))];
}

}  // namespace

std::vector<SwitchSpec> generate_random_tree(const RandomTreeSpec& spec) {
  Rng rng(derive_seed(spec.seed, 0x7472656555ull));
  const int depth = uniform_in(rng, spec.depth_min, spec.depth_max);
  // One speed and latency per level (level 1 = the root's children), drawn once.
  std::vector<double> level_bandwidth(static_cast<std::size_t>(depth) + 1);
  std::vector<TimeNs> level_latency(static_cast<std::size_t>(depth) + 1);
  for (int level = 1; level <= depth; ++level) {
    level_bandwidth[static_cast<std::size_t>(level)] = pick(rng, spec.uplink_bandwidths);
    level_latency[static_cast<std::size_t>(level)] = pick(rng, spec.uplink_latencies);
  }
  SwitchSpec root;
  root.name = "r";
  root.host_bandwidth = spec.host_bandwidth;
  root.host_latency = spec.host_latency;
  std::vector<SwitchSpec> switches{root};
  std::vector<int> level_of{0};
  // Breadth first, so parents come before children. The first child of every inner switch is
  // inner too, so some branch reaches the drawn depth; the others stop early half the time.
  std::deque<std::size_t> inner{0};
  while (!inner.empty()) {
    const std::size_t parent = inner.front();
    inner.pop_front();
    const int level = level_of[parent] + 1;
    const int children = uniform_in(rng, spec.fanout_min, spec.fanout_max);
    for (int c = 0; c < children; ++c) {
      SwitchSpec child;
      child.name = switches[parent].name + "." + std::to_string(c);
      child.parent = switches[parent].name;
      child.host_bandwidth = spec.host_bandwidth;
      child.host_latency = spec.host_latency;
      child.uplink_bandwidth = level_bandwidth[static_cast<std::size_t>(level)];
      child.uplink_latency = level_latency[static_cast<std::size_t>(level)];
      const bool is_inner = level < depth && (c == 0 || rng.uniform01() < 0.5);
      child.hosts = is_inner ? 0 : uniform_in(rng, spec.hosts_min, spec.hosts_max);
      switches.push_back(std::move(child));
      level_of.push_back(level);
      if (is_inner) inner.push_back(switches.size() - 1);
    }
  }
  return switches;
}

}  // namespace tsunagi::scenario
