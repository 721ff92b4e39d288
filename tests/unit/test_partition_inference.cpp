// groups = "partition" as the rendezvous runs it (PartitionInference): the chain, the windows
// cut at proven switch boundaries, the fallback when ranks are not in blocks, and the tree
// from the RTTs measured on the way (tree = "partition"). Random tree metrics as in
// test_partition_rounds.cpp; the scale figures of docs/benchmarks.md come from the hidden
// case at the end (`tsunagi_unit_tests "[.partition_scale]" -s`).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <limits>

#include "partition_driver.hpp"
#include "random_switch_tree.hpp"
#include "rendezvous/partition_tree.hpp"
#include "rendezvous/partition_windows.hpp"
#include "tsunagi/model/rng.hpp"
#include "tsunagi/model/topology/rtt_tree.hpp"

using namespace tsunagi;
using test::drive;
using test::World;

namespace {

SwitchTree truth_over(const World& w, const Groups& groups) {
  SwitchTree t;
  t.leaves = static_cast<int>(groups.size());
  t.parent = test::true_tree_parent(w, groups);
  return t;
}

// What tree = "rtt" makes of the same groups: exact RTTs between every two of them.
SwitchTree all_pairs_tree(const World& w, const Groups& groups, const InferenceConfig& cfg) {
  std::vector<std::vector<TimeNs>> rtt(groups.size(), std::vector<TimeNs>(groups.size(), -1));
  World quiet = w;  // tree = "rtt" measures noise too; its exact answer is the fair bar
  quiet.noise = 0;
  Rng exact(1);
  for (std::size_t i = 0; i < groups.size(); ++i)
    for (std::size_t j = 0; j < groups.size(); ++j)
      if (i != j) rtt[i][j] = quiet.rtt(groups[i].front(), groups[j].front(), exact);
  return tree_from_rtts(rtt, cfg.rtt_tree_tolerance);
}

// Every group reaches the one root.
bool rooted_over_all(const SwitchTree& t) {
  if (static_cast<int>(t.parent.size()) < t.leaves) return false;
  int roots = 0;
  for (int p : t.parent) roots += p < 0 ? 1 : 0;
  if (roots != 1) return false;
  for (int leaf = 0; leaf < t.leaves; ++leaf) {
    int at = leaf;
    for (std::size_t steps = 0; t.parent[static_cast<std::size_t>(at)] >= 0; ++steps) {
      if (steps > t.parent.size()) return false;  // a cycle
      at = t.parent[static_cast<std::size_t>(at)];
    }
  }
  return true;
}

}  // namespace

TEST_CASE("partition windows: cut only at proven switch boundaries", "[partition]") {
  // chain: a = 20, b = 60 (another switch), 80 (another aggregation switch).
  const std::vector<TimeNs> chain{20, 20, 60, 20, 20, 80, 20, 20, 60, 20};
  CHECK(window_starts(chain, 1, 0.3) == std::vector<std::size_t>{0, 3, 6, 9});
  CHECK(window_starts(chain, 4, 0.3) == std::vector<std::size_t>{0, 6});
  CHECK(window_starts(chain, 100, 0.3) == std::vector<std::size_t>{0});
  // Flat (one switch), unmeasured links and noise below the step never cut.
  CHECK(window_starts({20, 20, 21, 20, -1, 20}, 1, 0.3) == std::vector<std::size_t>{0});
  CHECK(window_starts({-1, 60, -1}, 1, 0.3) == std::vector<std::size_t>{0});
  CHECK(window_width(100) == 64);
  CHECK(window_width(100'000) == 634);
}

TEST_CASE("partition windows: representatives, parts, runs", "[partition]") {
  const std::vector<std::string> hosts{"a", "a", "b", "", "c", "b", ""};
  const auto reps = host_representatives(hosts);
  CHECK(reps == std::vector<Rank>{0, 2, 3, 4, 6});
  CHECK(window_parts(hosts, reps, {0, 2}) == Groups{{0, 1, 2, 5}, {3, 4, 6}});
  CHECK(groups_are_runs({{0, 1, 2, 5}, {3, 4}, {6}}, hosts, reps));
  CHECK_FALSE(groups_are_runs({{0, 1, 4}, {2, 3, 5, 6}}, hosts, reps));
}

TEST_CASE("partition tree: sparse links, tables", "[partition]") {
  SECTION("no groups, one group") {
    CHECK(tree_from_links(0, {}, 0.05).parent.empty());
    CHECK(tree_from_links(1, {}, 0.05).parent == std::vector<int>{-1});
  }
  SECTION("a chain of links is enough for an ultrametric in block order") {
    // ((0 1 2) (3 4)): 0-1-2 at 40, 3-4 at 40, 2-3 at 80.
    const SwitchTree t = tree_from_links(5, {{0, 1, 40}, {1, 2, 41}, {2, 3, 80}, {3, 4, 40}}, 0.05);
    CHECK(t.complete);
    CHECK(same_leaf_sets(t, SwitchTree{5, {5, 5, 5, 6, 6, 7, 7, -1}, true}));
  }
  SECTION("groups no link reaches hang off one root, complete = false") {
    const SwitchTree t = tree_from_links(4, {{0, 1, 40}}, 0.05);
    CHECK_FALSE(t.complete);
    CHECK(rooted_over_all(t));
    CHECK(same_leaf_sets(t, SwitchTree{4, {4, 4, 5, 5, 5, -1}, true}));
  }
  SECTION("relabelled leaves keep their switches") {
    const SwitchTree t = relabel_leaves(SwitchTree{3, {3, 3, 4, 4, -1}, true}, {2, 0, 1});
    CHECK(t.parent == std::vector<int>{3, 4, 3, 4, -1});
  }
}

TEST_CASE("partition tree: switch numbers depend on the shape only", "[partition]") {
  // Leaves 0..4; switches 5 (over 0, 1), 6 (over 2, 3), 7 (over 5, 6, 4) in one numbering...
  SwitchTree a{5, {5, 5, 6, 6, 7, 7, 7, -1}, true};
  // ... and the same shape with the switches numbered the other way round.
  SwitchTree b{5, {7, 7, 6, 6, 5, -1, 5, 5}, true};
  CHECK(same_leaf_sets(a, b));
  const SwitchTree ca = canonical_switch_numbers(a);
  CHECK(ca.parent == canonical_switch_numbers(b).parent);
  CHECK(ca.parent == std::vector<int>{6, 6, 7, 7, 5, -1, 5, 5});  // root first
  CHECK(same_leaf_sets(ca, a));
  // Random renumberings of random trees all come back to one numbering.
  Rng rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    const int leaves = 2 + static_cast<int>(rng.uniform(12));
    const SwitchTree t = test::random_switch_tree(leaves, rng, 2, 4);
    std::vector<int> perm(t.parent.size());
    for (std::size_t v = 0; v < perm.size(); ++v) perm[v] = static_cast<int>(v);
    for (std::size_t i = perm.size(); i > static_cast<std::size_t>(leaves) + 1; --i)
      std::swap(perm[i - 1], perm[static_cast<std::size_t>(leaves) + rng.uniform(i - leaves)]);
    SwitchTree shuffled = t;
    for (std::size_t v = 0; v < t.parent.size(); ++v) {
      const int p = t.parent[v];
      shuffled.parent[static_cast<std::size_t>(perm[v])] =
          p < 0 ? -1 : perm[static_cast<std::size_t>(p)];
    }
    CHECK(canonical_switch_numbers(shuffled).parent == canonical_switch_numbers(t).parent);
  }
}

TEST_CASE("partition inference: right wherever the switch step is significant, tree too",
          "[partition][property]") {
  InferenceConfig cfg;
  cfg.rtt_parallel = 4;
  int met = 0, windowed = 0, trees = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    Rng rng(seed);
    // Blocks (the premise of the windows) with windows of 2-10 hosts, so even small trees have
    // many; shuffled ranks with one window (the rounds over all ranks, no premise).
    const bool shuffle = seed % 4 == 0, mixed = seed % 3 == 0;
    World w = test::random_world(rng, shuffle, mixed);
    w.noise = seed % 5 == 0 ? 300 : 0;
    if (!w.step_significant(cfg.min_jump_ratio + 0.05)) continue;
    ++met;
    cfg.partition_leaders = 2 + static_cast<int>(seed % 7);
    const std::size_t width = shuffle ? std::numeric_limits<std::size_t>::max() : 2 + seed % 9;
    const auto out = drive(w, cfg, width, seed);
    INFO("seed " << seed << " ranks " << w.rank_host.size() << " width " << width);
    CHECK(out.groups == w.truth());
    CHECK_FALSE(out.fell_back);
    CHECK(rooted_over_all(out.tree));
    CHECK(out.tree.leaves == static_cast<int>(out.groups.size()));
    windowed += out.windows > 1 ? 1 : 0;
    // Every level probes a rank at most once per leader of its part (the chain: once).
    CHECK(out.max_per_rank <= static_cast<std::uint64_t>(cfg.partition_leaders * out.levels));
    // One latency per level, leaves at one depth: RTT is an ultrametric. Wherever tree = "rtt"
    // (every pair of groups) gets the true tree, this one must too, whether the ranks are in
    // blocks in tree order (the chain's links) or not (the leaders' rows over all ranks).
    if (!mixed &&
        same_leaf_sets(all_pairs_tree(w, out.raw_groups, cfg), truth_over(w, out.raw_groups))) {
      ++trees;
      CHECK(same_leaf_sets(out.tree, truth_over(w, out.raw_groups)));
      CHECK(out.tree.complete);
    }
  }
  CHECK(met >= 200);
  CHECK(windowed >= 100);
  CHECK(trees >= 100);
}

TEST_CASE("partition inference: ranks not in blocks", "[partition]") {
  InferenceConfig cfg;
  cfg.partition_leaders = 2;
  // Two switches, 4 hosts each, under one root; RTT 20 us inside, 60 us across.
  World w{{-1, 0, 0}, {0, 10'000, 10'000}, {1, 1, 1, 1, 2, 2, 2, 2}, {}};
  SECTION("interleaved: a group that is not a run sends all ranks to one part, right") {
    // Windows of 4: ranks 0-3 (hosts 0, 1, 4, 2) and 4-7; the first finds switch 1 as ranks
    // 0, 1, 3, not a run of hosts.
    w.rank_host = {0, 1, 4, 2, 5, 6, 7, 3};
    const auto out = drive(w, cfg, 4);
    CHECK(out.windows > 1);
    CHECK(out.fell_back);
    CHECK(out.groups == w.truth());
  }
  SECTION("blind spot: a lone host next to its nearest switch's block passes the check") {
    // Rank 0 is on switch 1, the block 1-4 on switch 2, ranks 5-7 on switch 1 again; windows
    // of 5 hosts: the first window holds one host of switch 1, which leads and takes switch
    // 2's hosts for its own. Every group is a run; no bounded-probe method can tell this
    // network from one where rank 0 is on switch 2 (docs/tree-inference.md).
    w.rank_host = {0, 4, 5, 6, 7, 1, 2, 3};
    const auto out = drive(w, cfg, 5);
    CHECK_FALSE(out.fell_back);
    CHECK(out.groups != w.truth());
    CHECK(drive(w, cfg, 0).groups == w.truth());  // one window: right
  }
}

namespace {

// switched-100k at n processes: root -> 10 -> n/400 leaves -> 40 hosts, in blocks.
World switched(int n) {
  return test::regular_world(10, n / 400, 40, 5'000, 10'000);
}

}  // namespace

TEST_CASE("partition inference: switched-100k's shape, at most 50 probes per process",
          "[partition]") {
  InferenceConfig cfg;
  cfg.rtt_samples = 1;
  cfg.rtt_parallel = 16;
  for (int n : {2'000, 8'000, 32'000}) {
    const World w = switched(n);
    const auto out = drive(w, cfg, 0);
    INFO(n << " processes");
    CHECK(out.groups == w.truth());
    CHECK_FALSE(out.fell_back);
    CHECK(same_leaf_sets(out.tree, truth_over(w, out.raw_groups)));
    CHECK(out.probes <= 50ull * static_cast<std::uint64_t>(n));
    CHECK(out.max_per_rank <= 50);
  }
}

TEST_CASE("partition inference: scale figures for docs/benchmarks.md", "[.partition_scale]") {
  InferenceConfig cfg;
  cfg.rtt_samples = 1;
  cfg.rtt_parallel = 16;
  std::printf("%9s %8s %9s %10s %8s %7s %6s %12s %6s\n", "processes", "windows", "probes",
              "per proc", "max/rank", "levels", "right", "groups end", "tree");
  double first_n = 0, first_t = 0;
  for (int n : {2'000, 4'000, 8'000, 16'000, 32'000, 100'000}) {
    const World w = switched(n);
    const auto out = drive(w, cfg, 0);
    const bool right = out.groups == w.truth();
    const bool tree = same_leaf_sets(out.tree, truth_over(w, out.raw_groups));
    std::printf("%9d %8zu %9llu %10.2f %8llu %7d %6s %9.2f ms %6s\n", n, out.windows,
                static_cast<unsigned long long>(out.probes), static_cast<double>(out.probes) / n,
                static_cast<unsigned long long>(out.max_per_rank), out.levels, right ? "yes" : "NO",
                static_cast<double>(out.end) / 1e6, tree ? "yes" : "NO");
    if (first_n == 0) {
      first_n = n;
      first_t = static_cast<double>(out.end);
    } else if (n == 32'000) {
      std::printf("exponent of the groups' modelled time, 2,000-32,000: %.2f\n",
                  std::log(static_cast<double>(out.end) / first_t) / std::log(n / first_n));
    }
    CHECK(right);
  }
}
