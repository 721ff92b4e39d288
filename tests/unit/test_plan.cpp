// Static connection plans (paper 000 §3.1): symmetry, connectivity, degrees, determinism.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <vector>

#include "tsunagi/model/overlay/plan.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;

namespace {

constexpr PlanKind kAllKinds[] = {PlanKind::AllToAll, PlanKind::RandomK, PlanKind::TopologyAware};

struct Plan {
  std::vector<std::vector<Rank>> rows;  // rows[u] = plan_neighbors(u)
};

Plan build_plan(PlanKind kind, int n, const Groups& groups, int k, std::uint64_t seed) {
  Plan plan;
  for (Rank u = 0; u < n; ++u) plan.rows.push_back(plan_neighbors(kind, u, n, groups, k, seed));
  return plan;
}

bool has(const std::vector<Rank>& row, Rank v) {
  return std::binary_search(row.begin(), row.end(), v);
}

// Every row sorted, unique, in range, without self; and v in row(u) iff u in row(v).
void check_well_formed(const Plan& plan, int n) {
  for (Rank u = 0; u < n; ++u) {
    const auto& row = plan.rows[static_cast<std::size_t>(u)];
    INFO("node " << u);
    REQUIRE(std::is_sorted(row.begin(), row.end()));
    REQUIRE(std::adjacent_find(row.begin(), row.end()) == row.end());
    REQUIRE_FALSE(has(row, u));
    for (Rank v : row) {
      REQUIRE(v >= 0);
      REQUIRE(v < n);
      INFO("edge to " << v);
      REQUIRE(has(plan.rows[static_cast<std::size_t>(v)], u));
    }
  }
}

bool connected(const Plan& plan, int n) {
  if (n == 0) return true;
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  std::deque<Rank> queue = {0};
  seen[0] = true;
  int reached = 1;
  while (!queue.empty()) {
    const Rank u = queue.front();
    queue.pop_front();
    for (Rank v : plan.rows[static_cast<std::size_t>(u)]) {
      if (!seen[static_cast<std::size_t>(v)]) {
        seen[static_cast<std::size_t>(v)] = true;
        ++reached;
        queue.push_back(v);
      }
    }
  }
  return reached == n;
}

std::size_t max_degree(const Plan& plan) {
  std::size_t most = 0;
  for (const auto& row : plan.rows) most = std::max(most, row.size());
  return most;
}

// Random switch layout over n ranks: shuffled ranks cut into groups of 1..max_size, each group
// sorted as inference produces them. With `gaps`, some ranks are left out, one is listed twice
// and an out-of-range rank is added, to exercise the normalisation.
Groups random_groups(int n, int max_size, bool gaps, Rng& rng) {
  std::vector<Rank> ranks;
  for (Rank r = 0; r < n; ++r) ranks.push_back(r);
  for (std::size_t i = ranks.size(); i > 1; --i) std::swap(ranks[i - 1], ranks[rng.uniform(i)]);
  Groups groups;
  std::size_t pos = 0;
  while (pos < ranks.size()) {
    const auto size = 1 + rng.uniform(static_cast<std::uint64_t>(max_size));
    std::vector<Rank> g(
        ranks.begin() + static_cast<std::ptrdiff_t>(pos),
        ranks.begin() + static_cast<std::ptrdiff_t>(std::min(ranks.size(), pos + size)));
    pos += size;
    if (gaps && rng.uniform(5) == 0) continue;  // these ranks are missing from the groups
    std::sort(g.begin(), g.end());
    groups.push_back(std::move(g));
  }
  if (gaps && !groups.empty()) {
    groups.back().push_back(groups.front().front());  // listed twice
    groups.back().push_back(n + 3);                   // out of range
  }
  return groups;
}

}  // namespace

TEST_CASE("property: every plan is symmetric and connected", "[plan]") {
  Rng rng(77);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + static_cast<int>(rng.uniform(120));
    const int k = static_cast<int>(rng.uniform(12));
    const Groups groups =
        random_groups(n, 1 + static_cast<int>(rng.uniform(20)), trial % 3 == 0, rng);
    const std::uint64_t seed = rng.next();
    for (PlanKind kind : kAllKinds) {
      INFO("trial " << trial << " n " << n << " k " << k << " plan " << to_string(kind));
      const Plan plan = build_plan(kind, n, groups, k, seed);
      check_well_formed(plan, n);
      CHECK(connected(plan, n));
    }
  }
}

TEST_CASE("all-to-all connects everyone", "[plan]") {
  const Plan plan = build_plan(PlanKind::AllToAll, 5, {}, 0, 1);
  CHECK(plan.rows[2] == std::vector<Rank>{0, 1, 3, 4});
  CHECK(plan_neighbors(PlanKind::AllToAll, 0, 1, {}, 0, 1).empty());
  CHECK(plan_neighbors(PlanKind::AllToAll, 5, 5, {}, 0, 1).empty());  // self out of range
  CHECK(plan_neighbors(PlanKind::AllToAll, -1, 5, {}, 0, 1).empty());
}

TEST_CASE("topology-aware: own switch plus spread gateways", "[plan]") {
  // Groups {0,1,2} and {3,4}: node 1 (index 1) links to 4 = B[1]; node 2 (index 2) to
  // B[2 % 2] = 3; node 3 (index 0) to A[0] = 0, and node 4 (index 1) to A[1] = 1.
  const Groups groups = {{0, 1, 2}, {3, 4}};
  const Plan plan = build_plan(PlanKind::TopologyAware, 5, groups, 0, 1);
  CHECK(plan.rows[0] == std::vector<Rank>{1, 2, 3});
  CHECK(plan.rows[1] == std::vector<Rank>{0, 2, 4});
  CHECK(plan.rows[2] == std::vector<Rank>{0, 1, 3});
  CHECK(plan.rows[3] == std::vector<Rank>{0, 2, 4});
  CHECK(plan.rows[4] == std::vector<Rank>{1, 3});
  check_well_formed(plan, 5);
}

TEST_CASE("topology-aware: ranks missing from the groups become singletons", "[plan]") {
  CHECK(normalise_plan_groups(5, {{0, 1, 2}, {}, {2, 9}}) == Groups{{0, 1, 2}, {3}, {4}});
  // A singleton is every other node's gateway into its own switch, so it links to everyone.
  const Plan plan = build_plan(PlanKind::TopologyAware, 5, {{0, 1, 2}}, 0, 1);
  CHECK(plan.rows[3] == std::vector<Rank>{0, 1, 2, 4});
  check_well_formed(plan, 5);
  // No groups at all: every rank is its own switch, which is all-to-all.
  CHECK(build_plan(PlanKind::TopologyAware, 4, {}, 0, 1).rows ==
        build_plan(PlanKind::AllToAll, 4, {}, 0, 1).rows);
}

TEST_CASE("topology-aware on the paper's IS cluster stays within 31 connections", "[plan]") {
  // Paper 000 §4.2: 128 processes over 6 switches, at most 31 static connections per node.
  const std::vector<int> sizes = {22, 22, 22, 22, 20, 20};
  Groups groups;
  Rank next = 0;
  for (int size : sizes) {
    groups.emplace_back();
    for (int i = 0; i < size; ++i) groups.back().push_back(next++);
  }
  const Plan plan = build_plan(PlanKind::TopologyAware, next, groups, 0, 1);
  check_well_formed(plan, next);
  CHECK(connected(plan, next));
  CHECK(max_degree(plan) <= 31);
  // Every node reaches all of its own switch and at least one node of each other switch.
  for (const auto& group : groups) {
    for (Rank u : group) {
      const auto& row = plan.rows[static_cast<std::size_t>(u)];
      for (Rank v : group) CHECK((v == u || has(row, v)));
      for (const auto& other : groups) {
        if (&other == &group) continue;
        CHECK(std::any_of(other.begin(), other.end(), [&](Rank v) { return has(row, v); }));
      }
    }
  }
}

TEST_CASE("random-k: mean degree near k, deterministic per seed", "[plan]") {
  constexpr int n = 200;
  for (int k : {2, 4, 8, 16}) {
    for (std::uint64_t seed : {1ULL, 2ULL, 3ULL}) {
      const Plan plan = build_plan(PlanKind::RandomK, n, {}, k, seed);
      std::size_t degree_sum = 0;
      for (const auto& row : plan.rows) degree_sum += row.size();
      const double mean = static_cast<double>(degree_sum) / n;
      INFO("k " << k << " seed " << seed);
      CHECK(mean > k - 0.75);
      CHECK(mean < k + 0.75);
    }
  }
  const Plan a = build_plan(PlanKind::RandomK, n, {}, 8, 42);
  CHECK(a.rows == build_plan(PlanKind::RandomK, n, {}, 8, 42).rows);
  CHECK(a.rows != build_plan(PlanKind::RandomK, n, {}, 8, 43).rows);
  // k at or above n-1 is all-to-all; k of 2 or less is the bare ring.
  CHECK(build_plan(PlanKind::RandomK, 6, {}, 99, 1).rows ==
        build_plan(PlanKind::AllToAll, 6, {}, 0, 1).rows);
  CHECK(plan_neighbors(PlanKind::RandomK, 0, 10, {}, 0, 5) == std::vector<Rank>{1, 9});
  CHECK(plan_neighbors(PlanKind::RandomK, 0, 2, {}, 8, 5) == std::vector<Rank>{1});
  CHECK(random_plan_edge(3, 7, 10, 5, 11) == random_plan_edge(7, 3, 10, 5, 11));
  CHECK_FALSE(random_plan_edge(3, 3, 10, 5, 11));
  CHECK_FALSE(random_plan_edge(3, 10, 10, 5, 11));
}
