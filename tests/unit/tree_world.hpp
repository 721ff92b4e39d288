// Random switch trees as RTT tables, for the group-inference units (test_partition_rounds.cpp,
// test_leader_rounds.cpp): a tree with per-link latencies, hosts on the leaves, ranks on hosts
// (in blocks or shuffled), exact RTTs plus optional noise, and the truth to check against.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "tsunagi/model/rng.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi::test {

// A switch tree: parent[s] (-1 at the root), uplink latency of each switch; hosts hang off
// leaves; every rank sits on a host.
struct World {
  std::vector<int> parent;
  std::vector<TimeNs> uplink;
  std::vector<int> host_switch;
  std::vector<int> rank_host;
  TimeNs host_latency = 5'000;
  TimeNs noise = 0;

  TimeNs path(int a, int b) const {
    auto depth = [&](int s) {
      int d = 0;
      for (; parent[static_cast<std::size_t>(s)] >= 0; s = parent[static_cast<std::size_t>(s)]) ++d;
      return d;
    };
    TimeNs sum = 0;
    while (a != b) {
      int& deeper = depth(a) >= depth(b) ? a : b;
      sum += uplink[static_cast<std::size_t>(deeper)];
      deeper = parent[static_cast<std::size_t>(deeper)];
    }
    return sum;
  }
  int switch_of(Rank r) const {
    return host_switch[static_cast<std::size_t>(rank_host[static_cast<std::size_t>(r)])];
  }
  TimeNs rtt(Rank p, Rank q, Rng& rng) const {
    const TimeNs exact = 2 * (2 * host_latency + path(switch_of(p), switch_of(q)));
    return exact +
           (noise > 0 ? static_cast<TimeNs>(rng.uniform(static_cast<std::uint64_t>(noise))) : 0);
  }
  std::vector<std::string> hosts() const {
    std::vector<std::string> out;
    for (int h : rank_host) out.push_back("h" + std::to_string(h));
    return out;
  }
  // The true groups: ranks by switch, sorted.
  Groups truth() const {
    std::vector<std::vector<Rank>> by(parent.size());
    for (Rank r = 0; r < static_cast<Rank>(rank_host.size()); ++r)
      by[static_cast<std::size_t>(switch_of(r))].push_back(r);
    Groups out;
    for (auto& g : by)
      if (!g.empty()) out.push_back(g);
    std::sort(out.begin(), out.end());
    return out;
  }
  // Condition (1): every switch with two or more hosts has its nearest other switch at least
  // (1 + ratio) times as far as a switch-mate.
  bool step_significant(double ratio) const {
    const TimeNs a = 4 * host_latency;
    for (std::size_t s = 0; s < parent.size(); ++s) {
      if (std::count(host_switch.begin(), host_switch.end(), static_cast<int>(s)) == 0) continue;
      for (std::size_t o = 0; o < parent.size(); ++o) {
        if (o == s || std::count(host_switch.begin(), host_switch.end(), static_cast<int>(o)) == 0)
          continue;
        const TimeNs b = 2 * (2 * host_latency + path(static_cast<int>(s), static_cast<int>(o)));
        if (static_cast<double>(b) < (1 + ratio) * static_cast<double>(a)) return false;
      }
    }
    return true;
  }
};

// One latency per level, or (mixed) a quarter of the links drawn on their own.
inline World random_world(Rng& rng, bool shuffle, bool mixed) {
  World w;
  w.host_latency = rng.uniform(3) == 0 ? 10'000 : 5'000;
  const TimeNs choices[] = {2'000, 5'000, 10'000, 20'000};
  w.parent.push_back(-1);
  w.uplink.push_back(0);
  std::vector<int> frontier{0};
  const int depth = 1 + static_cast<int>(rng.uniform(4));
  for (int level = 0; level < depth; ++level) {
    std::vector<int> next;
    const TimeNs lat = choices[rng.uniform(4)];
    for (int s : frontier) {
      const int fanout = 1 + static_cast<int>(rng.uniform(level == 0 ? 12 : 5));
      for (int c = 0; c < fanout; ++c) {
        w.parent.push_back(s);
        w.uplink.push_back(mixed && rng.uniform(4) == 0 ? choices[rng.uniform(4)] : lat);
        next.push_back(static_cast<int>(w.parent.size()) - 1);
      }
    }
    frontier = next;
  }
  for (int leaf : frontier) {
    const int hosts = 2 + static_cast<int>(rng.uniform(4));
    for (int h = 0; h < hosts; ++h) {
      w.host_switch.push_back(leaf);
      const int procs = rng.uniform(4) == 0 ? 2 : 1;
      for (int p = 0; p < procs; ++p)
        w.rank_host.push_back(static_cast<int>(w.host_switch.size()) - 1);
    }
  }
  if (shuffle) {
    for (std::size_t i = w.rank_host.size(); i > 1; --i)
      std::swap(w.rank_host[i - 1], w.rank_host[rng.uniform(i)]);
  }
  return w;
}

// A regular tree in blocks: root -> `aggs` switches (uplink `agg_up`) -> `leaves` each (uplink
// `leaf_up`) -> `hosts` hosts, one rank per host, ranks in tree order (switched-100k's shape
// with 10, N/400, 40, 5 us, 10 us).
inline World regular_world(int aggs, int leaves, int hosts, TimeNs agg_up, TimeNs leaf_up) {
  World w;
  w.parent = {-1};
  w.uplink = {0};
  for (int a = 0; a < aggs; ++a) {
    w.parent.push_back(0);
    w.uplink.push_back(agg_up);
    const int agg = static_cast<int>(w.parent.size()) - 1;
    for (int l = 0; l < leaves; ++l) {
      w.parent.push_back(agg);
      w.uplink.push_back(leaf_up);
      for (int h = 0; h < hosts; ++h)
        w.host_switch.push_back(static_cast<int>(w.parent.size()) - 1);
    }
  }
  w.rank_host.resize(w.host_switch.size());
  for (std::size_t r = 0; r < w.rank_host.size(); ++r) w.rank_host[r] = static_cast<int>(r);
  return w;
}

// The true switch tree over `groups` (leaf i = the switch of groups[i]'s ranks; switches
// follow as nodes leaves + s), for same_leaf_sets against an inferred tree.
inline std::vector<int> true_tree_parent(const World& w, const Groups& groups) {
  const int leaves = static_cast<int>(groups.size());
  std::vector<int> parent;
  for (const auto& g : groups) parent.push_back(leaves + w.switch_of(g.front()));
  for (int p : w.parent) parent.push_back(p < 0 ? -1 : leaves + p);
  return parent;
}

}  // namespace tsunagi::test
