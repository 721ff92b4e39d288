// groups = "leaders": one leader round after another. Its cut takes the innermost significant
// step, so a leader whose nearest switches were placed before it still finds exactly its own
// switch (with the largest-step rule the row's merged outer steps pulled the cut outwards).
#include <catch2/catch.hpp>

#include <algorithm>

#include "rendezvous/leader_rounds.hpp"
#include "tree_world.hpp"

using namespace tsunagi;
using test::World;

namespace {

Groups run_leaders(const World& w, const InferenceConfig& cfg, std::uint64_t seed) {
  Rng rng(seed);
  LeaderRounds rounds(w.hosts(), cfg);
  while (auto order = rounds.next()) {
    std::vector<RttSample> row;
    for (Rank t : order->targets) row.push_back({t, w.rtt(order->leader, t, rng)});
    rounds.on_row(order->leader, std::move(row));
  }
  Groups groups = rounds.groups();
  for (auto& g : groups) std::sort(g.begin(), g.end());
  std::sort(groups.begin(), groups.end());
  return groups;
}

}  // namespace

TEST_CASE("leaders: a sibling placed first does not pull the cut outwards", "[leaders]") {
  // root -> {A: {s1, s2}, s3}; s1 under A 2 us, A's uplink 20 us, s3 20 us. Leader 0 (s1)
  // places s1; leader 2 (s2) then sees only s3's ranks: 8 us of switch, then a 92 us step.
  // Its row [28 (mate), 188 (s3)] cut anywhere but after the mate is wrong.
  World w{
      {-1, 0, 1, 1, 0}, {0, 20'000, 2'000, 2'000, 20'000}, {2, 2, 3, 3, 4, 4}, {0, 1, 2, 3, 4, 5}};
  InferenceConfig cfg;
  CHECK(run_leaders(w, cfg, 1) == w.truth());
}

TEST_CASE("leaders: right wherever the switch step is significant (random trees)",
          "[leaders][property]") {
  InferenceConfig cfg;
  int met = 0;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    Rng rng(seed);
    World w = test::random_world(rng, seed % 2 == 0, true);
    w.noise = seed % 3 == 0 ? 300 : 0;
    if (!w.step_significant(cfg.min_jump_ratio + 0.05)) continue;
    ++met;
    INFO("seed " << seed);
    CHECK(run_leaders(w, cfg, seed) == w.truth());
  }
  CHECK(met >= 50);
}
