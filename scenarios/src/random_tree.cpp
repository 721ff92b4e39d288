// The random switched-tree generator behind [network.random_tree]: seeded, with ranges for
// depth, fan-out and hosts per leaf, and per-level link speeds drawn from lists.
#include <deque>
#include <utility>

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

// One switch as drawn: its parent's index (breadth-first order, the root is 0), its level
// (the root's children are level 1), its place among its siblings and its hosts.
struct Drawn {
  std::size_t parent = 0;
  int level = 0;
  int child = 0;
  int hosts = 0;
};

// The one place the tree is drawn, so that counting it (random_tree_size) and building it
// (generate_random_tree) see the same tree. Draws the per-level links into `levels`, then
// hands every switch below the root to `visit`, breadth first (parents before children);
// stops early when `visit` returns false.
template <class Visit>
void draw_tree(const RandomTreeSpec& spec, std::vector<std::pair<double, TimeNs>>& levels,
               Visit visit) {
  Rng rng(derive_seed(spec.seed, 0x7472656555ull));
  const int depth = uniform_in(rng, spec.depth_min, spec.depth_max);
  // One speed and latency per level (level 1 = the root's children), drawn once.
  levels.assign(static_cast<std::size_t>(depth) + 1, {0.0, 0});
  for (int level = 1; level <= depth; ++level) {
    levels[static_cast<std::size_t>(level)].first = pick(rng, spec.uplink_bandwidths);
    levels[static_cast<std::size_t>(level)].second = pick(rng, spec.uplink_latencies);
  }
  // The first child of every inner switch is inner too, so some branch reaches the drawn
  // depth; the others stop early half the time.
  std::deque<std::pair<std::size_t, int>> inner{{0, 0}};  // index, level
  std::size_t next_index = 1;
  while (!inner.empty()) {
    const auto [parent, parent_level] = inner.front();
    inner.pop_front();
    const int level = parent_level + 1;
    const int children = uniform_in(rng, spec.fanout_min, spec.fanout_max);
    for (int c = 0; c < children; ++c) {
      const bool is_inner = level < depth && (c == 0 || rng.uniform01() < 0.5);
      const int hosts = is_inner ? 0 : uniform_in(rng, spec.hosts_min, spec.hosts_max);
      const std::size_t index = next_index++;
      if (!visit(Drawn{parent, level, c, hosts})) return;
      if (is_inner) inner.emplace_back(index, level);
    }
  }
}

}  // namespace

TreeSize random_tree_size(const RandomTreeSpec& spec, std::int64_t max_switches,
                          std::int64_t max_hosts) {
  TreeSize size{1, 0};  // the root, which has no hosts
  std::vector<std::pair<double, TimeNs>> levels;
  draw_tree(spec, levels, [&](const Drawn& drawn) {
    ++size.switches;
    size.hosts += drawn.hosts;
    return size.switches <= max_switches && size.hosts <= max_hosts;
  });
  return size;
}

std::vector<SwitchSpec> generate_random_tree(const RandomTreeSpec& spec) {
  SwitchSpec root;
  root.name = "r";
  root.host_bandwidth = spec.host_bandwidth;
  root.host_latency = spec.host_latency;
  std::vector<SwitchSpec> switches{root};
  std::vector<std::pair<double, TimeNs>> levels;
  draw_tree(spec, levels, [&](const Drawn& drawn) {
    SwitchSpec child;
    child.name = switches[drawn.parent].name + "." + std::to_string(drawn.child);
    child.parent = switches[drawn.parent].name;
    child.host_bandwidth = spec.host_bandwidth;
    child.host_latency = spec.host_latency;
    child.uplink_bandwidth = levels[static_cast<std::size_t>(drawn.level)].first;
    child.uplink_latency = levels[static_cast<std::size_t>(drawn.level)].second;
    child.hosts = drawn.hosts;
    switches.push_back(std::move(child));
    return true;
  });
  return switches;
}

}  // namespace tsunagi::scenario
