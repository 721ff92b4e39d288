// Turns for measuring paths (issue 32): one measurer per measured rank at a time, the others in
// the order they asked; asks out of turn refused (rendezvous/probe_turns.hpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "rendezvous/probe_turns.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;

TEST_CASE("probe turns: one measurer per rank, the rest in the order they asked", "[window]") {
  ProbeTurns turns;
  CHECK(turns.ask(0, 2).granted);
  CHECK_FALSE(turns.ask(1, 2).granted);  // 2 is being measured by 0
  CHECK(turns.ask(3, 1).granted);        // another rank is free
  CHECK_FALSE(turns.ask(4, 2).granted);
  CHECK(turns.waiting() == 2);
  CHECK(turns.done(0, 2) == Rank{1});  // 1 asked first
  CHECK(turns.done(1, 2) == Rank{4});
  CHECK_FALSE(turns.done(4, 2));  // nobody waits
  CHECK(turns.waiting() == 0);
  CHECK(turns.ask(0, 2).granted);  // free again; 0 may ask anew once done
}

TEST_CASE("probe turns: asks and dones out of turn", "[window]") {
  ProbeTurns turns;
  CHECK(turns.ask(1, 1).refused == std::string("a turn to measure itself"));
  CHECK(turns.ask(1, 2).granted);
  const auto second = turns.ask(1, 3);  // one turn at a time
  CHECK_FALSE(second.granted);
  CHECK(second.refused == std::string("a second turn (rank 1 already asked for rank 2)"));
  CHECK(turns.ask(3, 2).refused == std::nullopt);  // waits
  std::string why;
  CHECK_FALSE(turns.done(3, 2, &why));  // 3 waits; it does not hold the turn
  CHECK(why == "done with rank 2 without its turn");
  CHECK_FALSE(turns.done(1, 5, &why));
  CHECK(why == "done with rank 5 without its turn");
  CHECK(turns.done(1, 2) == Rank{3});  // the refusals changed nothing
}

TEST_CASE("probe turns: property — never two measurers of one rank, every ask served", "[window]") {
  // Random runs of 2-9 ranks, each measuring every other rank once, asking, holding for a while
  // and saying done, in a random interleaving.
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    Rng rng(seed);
    const int n = 2 + static_cast<int>(rng.uniform(8));
    ProbeTurns turns;
    std::map<Rank, std::vector<Rank>> todo;  // rank -> targets left
    std::map<Rank, Rank> asked;              // rank -> target it asked for
    std::map<Rank, Rank> holding;            // rank -> target whose turn it holds
    std::map<Rank, Rank> measurer;           // target -> rank holding its turn
    for (Rank r = 0; r < n; ++r)
      for (Rank t = 0; t < n; ++t)
        if (t != r) todo[r].push_back(t);
    const auto take = [&](Rank r, Rank target) {
      CAPTURE(seed, r, target);
      REQUIRE(measurer.count(target) == 0);  // never two at once
      measurer[target] = r;
      holding[r] = target;
      asked.erase(r);
    };
    for (int step = 0; step < 10'000; ++step) {
      std::vector<Rank> can;
      for (Rank r = 0; r < n; ++r)
        if (holding.count(r) || (!asked.count(r) && !todo[r].empty())) can.push_back(r);
      if (can.empty()) break;
      const Rank r = can[rng.uniform(can.size())];
      if (auto held = holding.find(r); held != holding.end()) {
        const Rank target = held->second;
        holding.erase(held);
        measurer.erase(target);
        if (auto next = turns.done(r, target)) take(*next, target);
        continue;
      }
      const Rank target = todo[r].back();
      todo[r].pop_back();
      asked[r] = target;
      const auto answer = turns.ask(r, target);
      REQUIRE_FALSE(answer.refused);
      if (answer.granted) take(r, target);
    }
    CAPTURE(seed, n);
    CHECK(asked.empty());  // everyone who asked got a turn
    CHECK(holding.empty());
    CHECK(turns.waiting() == 0);
  }
}
