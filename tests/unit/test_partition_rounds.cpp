// groups = "partition": concurrent leader rounds over parts of the network. Driven here on
// random tree metrics (any depth, fan-out and per-link latency, ranks placed in blocks or
// shuffled, with and without noise): wherever every switch's step is significant (condition (1)
// of docs/tree-inference.md) the groups must be exactly the switches.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "rendezvous/partition_rounds.hpp"
#include "tree_world.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;

namespace {

using test::random_world;
using test::World;

struct Outcome {
  Groups groups;
  int rounds = 0;  // batches of orders handed out (parts measuring side by side share one)
  std::uint64_t probes = 0;
  std::uint64_t max_per_rank = 0;
  int levels = 0;
};

Outcome run(const World& w, const InferenceConfig& cfg, std::uint64_t seed = 7) {
  Rng rng(seed);
  PartitionRounds rounds(w.hosts(), cfg);
  Outcome out;
  while (!rounds.finished()) {
    const auto orders = rounds.take_orders();
    REQUIRE(!orders.empty());
    ++out.rounds;
    for (const auto& order : orders) {
      std::vector<RttSample> row;
      for (Rank t : order.targets) row.push_back({t, w.rtt(order.from, t, rng)});
      rounds.on_column(order.from, row);
    }
  }
  out.groups = rounds.groups();
  for (auto& g : out.groups) std::sort(g.begin(), g.end());
  std::sort(out.groups.begin(), out.groups.end());
  out.probes = rounds.probes();
  out.max_per_rank = rounds.max_probes_per_rank();
  out.levels = rounds.levels();
  return out;
}

}  // namespace

TEST_CASE("partition: tables", "[partition]") {
  InferenceConfig cfg;
  SECTION("one rank, one host, one switch") {
    World w{{-1}, {0}, {0}, {0}};
    CHECK(run(w, cfg).groups == Groups{{0}});
    w.rank_host = {0, 0, 0};
    CHECK(run(w, cfg).groups == Groups{{0, 1, 2}});
    w.host_switch = {0, 0, 0};
    w.rank_host = {0, 1, 2};
    const Outcome flat = run(w, cfg);
    CHECK(flat.groups == Groups{{0, 1, 2}});
    CHECK(flat.levels == 1);
  }
  SECTION("two switches, ranks interleaved: parts follow RTTs, not rank order") {
    World w{{-1, 0, 0}, {0, 10'000, 10'000}, {1, 2, 1, 2, 1, 2}, {0, 1, 2, 3, 4, 5}};
    CHECK(run(w, cfg).groups == Groups{{0, 2, 4}, {1, 3, 5}});
  }
  SECTION("equal-step tree deeper than the leaders reach: 3 levels x fan-out 3") {
    World w;
    w.parent = {-1};
    w.uplink = {0};
    for (int a = 0; a < 3; ++a) {
      w.parent.push_back(0);
      w.uplink.push_back(10'000);
      const int agg = static_cast<int>(w.parent.size()) - 1;
      for (int l = 0; l < 3; ++l) {
        w.parent.push_back(agg);
        w.uplink.push_back(10'000);
        for (int h = 0; h < 4; ++h) w.host_switch.push_back(static_cast<int>(w.parent.size()) - 1);
      }
    }
    w.rank_host.resize(w.host_switch.size());
    std::iota(w.rank_host.begin(), w.rank_host.end(), 0);
    cfg.partition_leaders = 2;
    const Outcome out = run(w, cfg);
    CHECK(out.groups == w.truth());
    CHECK(out.max_per_rank <= static_cast<std::uint64_t>(2 * out.levels));
  }
}

TEST_CASE("partition: right wherever the switch step is significant (random trees)",
          "[partition][property]") {
  InferenceConfig cfg;
  int met = 0, outside = 0;
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    Rng rng(seed);
    // Noise well below the smallest difference between two paths (2 x 2 us links): ties
    // between leaders must not split a switch.
    World w = random_world(rng, seed % 2 == 0, seed % 5 != 0);
    w.noise = seed % 3 == 0 ? 300 : 0;  // < 2 % of a switch-mate's RTT
    if (!w.step_significant(cfg.min_jump_ratio + 0.05)) {
      ++outside;
      continue;
    }
    ++met;
    cfg.partition_leaders = 2 + static_cast<int>(seed % 7);
    const Outcome out = run(w, cfg, seed);
    INFO("seed " << seed << " ranks " << w.rank_host.size() << " switches " << w.parent.size());
    CHECK(out.groups == w.truth());
    // Every rank probes at most the leaders of one part per level.
    CHECK(out.max_per_rank <= static_cast<std::uint64_t>(cfg.partition_leaders * out.levels));
    CHECK(out.rounds >= out.levels);
  }
  CHECK(met >= 200);
  CHECK(outside >= 1);
}

TEST_CASE("partition: ranks of a block-placed regular tree each probe a few leaders",
          "[partition][property]") {
  // switched-10k's shape at 2,000: 10 aggregation switches x 5 leaves x 40 hosts.
  World w;
  w.parent = {-1};
  w.uplink = {0};
  for (int a = 0; a < 10; ++a) {
    w.parent.push_back(0);
    w.uplink.push_back(10'000);
    const int agg = static_cast<int>(w.parent.size()) - 1;
    for (int l = 0; l < 5; ++l) {
      w.parent.push_back(agg);
      w.uplink.push_back(20'000);
      for (int h = 0; h < 40; ++h) w.host_switch.push_back(static_cast<int>(w.parent.size()) - 1);
    }
  }
  w.rank_host.resize(w.host_switch.size());
  std::iota(w.rank_host.begin(), w.rank_host.end(), 0);
  InferenceConfig cfg;
  const Outcome out = run(w, cfg);
  CHECK(out.groups == w.truth());
  CHECK(out.groups.size() == 50);
  CHECK(out.levels <= 4);
  CHECK(out.max_per_rank <= 32);
  CHECK(out.probes <= 2000 * 24);
}

TEST_CASE("partition: a column from a rank that owes none is refused", "[partition]") {
  InferenceConfig cfg;
  PartitionRounds rounds({"a", "b", "c"}, cfg);
  const auto orders = rounds.take_orders();
  REQUIRE(orders.size() == 3);
  CHECK_FALSE(rounds.on_column(7, {}));
  CHECK_FALSE(rounds.on_column(-1, {}));
  CHECK(rounds.on_column(0, {{1, 40'000}}));
  CHECK_FALSE(rounds.on_column(0, {{1, 40'000}}));  // once
  CHECK(rounds.take_orders().empty());
}
