// The hierarchical plan and its routes: tables for the rules (leaders, the tree of leaders, what
// a leader knows beneath it), then random groups and random trees where every route arrives
// within the stated bound, the plan is symmetric, and lost links are reported, not guessed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "random_switch_tree.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/overlay/hierarchy.hpp"
#include "tsunagi/model/overlay/hierarchy_routes.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;

namespace {

// groups {0,1} {2,3} {4,5} {6,7}; switches: 4 over groups 0 and 1, 5 over 2 and 3, root 6.
SwitchTree two_level_tree() {
  SwitchTree t;
  t.leaves = 4;
  t.parent = {4, 4, 5, 5, 6, 6, -1};
  return t;
}

Groups shuffled_groups(int n, int count, Rng& rng) {
  std::vector<Rank> ranks(static_cast<std::size_t>(n));
  std::iota(ranks.begin(), ranks.end(), 0);
  for (std::size_t i = ranks.size(); i > 1; --i) std::swap(ranks[i - 1], ranks[rng.uniform(i)]);
  Groups groups(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < ranks.size(); ++i)
    groups[i < groups.size() ? i : rng.uniform(groups.size())].push_back(ranks[i]);
  return groups;
}

std::vector<HierarchyRoutes> routes_of(const HierarchyPlan& plan) {
  std::vector<HierarchyRoutes> routes;
  for (Rank r = 0; r < plan.processes(); ++r)
    routes.emplace_back(r, plan.processes(), plan.placement(r), plan.neighbors(r));
  return routes;
}

// Hops from src to dst following next hops, or -1 when it breaks or loops.
int walk(const std::vector<HierarchyRoutes>& routes, Rank src, Rank dst) {
  Rank at = src;
  for (int hops = 0; hops <= 64; ++hops) {
    if (at == dst) return hops;
    const Rank next = routes[static_cast<std::size_t>(at)].next_hop(dst);
    if (next == kNoRank) return -1;
    at = next;
  }
  return -1;
}

}  // namespace

TEST_CASE("hierarchy: tables", "[hierarchy]") {
  SECTION("one group is a clique with no leader links") {
    const HierarchyPlan plan(3, {{2, 0, 1}}, nullptr);
    CHECK(plan.neighbors(1) == std::vector<Rank>{0, 2});
    CHECK(plan.placement(1).links.leader == 0);
    CHECK(plan.placement(0).links.children.empty());
    CHECK_FALSE(plan.star());
    CHECK(plan.connection_ends() == 6);
  }
  SECTION("a two-level tree: leaders follow the switches") {
    const SwitchTree tree = two_level_tree();
    const HierarchyPlan plan(8, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, &tree);
    CHECK_FALSE(plan.star());
    CHECK(plan.height() == 2);
    const Placement root = plan.placement(0);
    CHECK(root.links.parent == kNoRank);
    CHECK(root.links.children == std::vector<Rank>{2, 4});
    CHECK(root.links.below == std::vector<Rank>{2, 3, 4, 5, 6, 7});
    CHECK(root.links.below_via == std::vector<Rank>{2, 2, 4, 4, 4, 4});
    const Placement four = plan.placement(4);
    CHECK(four.links.parent == 0);
    CHECK(four.links.children == std::vector<Rank>{6});
    CHECK(four.links.below == std::vector<Rank>{6, 7});
    CHECK(four.links.up == 1);
    CHECK(plan.placement(6).links.up == 2);
    CHECK(plan.neighbors(7) == std::vector<Rank>{6});
    CHECK(plan.neighbors(6) == std::vector<Rank>{4, 7});
    CHECK(plan.neighbors(0) == std::vector<Rank>{1, 2, 4});
    CHECK(plan.connection_ends() == 8 + 6);
  }
  SECTION("no tree: a star around the lowest leader") {
    const HierarchyPlan plan(6, {{4, 5}, {0, 1}, {2, 3}}, nullptr);
    CHECK(plan.star());
    CHECK(plan.placement(0).links.children == std::vector<Rank>{2, 4});
    CHECK(plan.placement(4).links.parent == 0);
  }
  SECTION("a tree that does not fit the groups is replaced by a star") {
    SwitchTree wrong = two_level_tree();
    wrong.leaves = 3;
    CHECK(HierarchyPlan(8, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, &wrong).star());
    SwitchTree cycle = two_level_tree();
    cycle.parent[6] = 4;
    CHECK(HierarchyPlan(8, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, &cycle).star());
    const SwitchTree tree = two_level_tree();
    CHECK(HierarchyPlan(8, {{0, 1}, {}, {4, 5}, {6, 7}}, &tree).star());
  }
  SECTION("ranks nobody placed hang off the root as groups of their own") {
    const SwitchTree tree = two_level_tree();
    const HierarchyPlan plan(10, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, &tree);
    CHECK(plan.placement(9).links.leader == 9);
    CHECK(plan.placement(9).links.parent == 0);
    CHECK(plan.neighbors(8) == std::vector<Rank>{0});
  }
  SECTION("out of range") {
    const HierarchyPlan plan(2, {{0, 1}}, nullptr);
    CHECK(plan.placement(2).group.empty());
    CHECK(plan.placement(-1).group.empty());
  }
}

TEST_CASE("hierarchy: routes arrive within the bound on random groups and trees", "[hierarchy]") {
  Rng rng(30);
  for (int trial = 0; trial < 60; ++trial) {
    const int n = 1 + static_cast<int>(rng.uniform(80));
    const int count = 1 + static_cast<int>(rng.uniform(static_cast<std::size_t>(std::min(n, 12))));
    const Groups groups = shuffled_groups(n, count, rng);
    const SwitchTree tree = test::random_switch_tree(count, rng, 1, 4, 0.1);
    const SwitchTree* given = rng.uniform01() < 0.8 ? &tree : nullptr;
    const HierarchyPlan plan(n, groups, given);
    CHECK(plan.star() == (given == nullptr && count > 1));  // every group has a rank: tree fits
    std::uint64_t ends = 0;
    for (Rank u = 0; u < n; ++u) {
      const auto mine = plan.neighbors(u);
      ends += mine.size();
      for (Rank v : mine) {
        const auto theirs = plan.neighbors(v);
        CHECK(std::binary_search(theirs.begin(), theirs.end(), u));  // symmetric
      }
    }
    CHECK(ends == plan.connection_ends());
    const auto routes = routes_of(plan);
    for (Rank src = 0; src < n; ++src) {
      CHECK(routes[static_cast<std::size_t>(src)].complete());
      const int bound = routes[static_cast<std::size_t>(src)].max_distance();
      for (Rank dst = 0; dst < n; ++dst) {
        const int hops = walk(routes, src, dst);
        CHECK(hops >= 0);
        CHECK(hops <= bound);
      }
    }
  }
}

TEST_CASE("hierarchy: a lost leader link cuts its group off, and says so", "[hierarchy]") {
  const SwitchTree tree = two_level_tree();
  const HierarchyPlan plan(8, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, &tree);
  auto routes = routes_of(plan);
  routes[7].drop_neighbor(6);  // member 7 lost its leader
  CHECK(routes[7].next_hop(0) == kNoRank);
  CHECK(routes[7].known() == 1);
  CHECK_FALSE(routes[7].complete());
  routes[4].drop_neighbor(6);  // and leader 4 its child 6: 6 and 7 are unreachable from 4
  CHECK(routes[4].next_hop(7) == kNoRank);
  CHECK(routes[4].known() == 8 - 2);
  CHECK(routes[0].next_hop(7) == 4);  // 0 does not know; 4 reports it
  // Inside a group, a failed link goes through a group-mate.
  const HierarchyPlan big(4, {{0, 1, 2, 3}}, nullptr);
  auto clique = routes_of(big);
  clique[1].drop_neighbor(3);
  CHECK(clique[1].next_hop(3) == 0);
  CHECK(clique[1].complete());
}

TEST_CASE("hierarchy: digests differ exactly when the tables do", "[hierarchy]") {
  const SwitchTree tree = two_level_tree();
  const HierarchyPlan plan(8, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, &tree);
  const auto a = routes_of(plan);
  const auto b = routes_of(plan);
  for (std::size_t r = 0; r < a.size(); ++r) CHECK(a[r].digest() == b[r].digest());
  auto c = routes_of(plan);
  c[0].drop_neighbor(4);
  CHECK(c[0].digest() != a[0].digest());
  CHECK(a[0].digest() != a[4].digest());
}

TEST_CASE("hierarchy: placements cross the wire unchanged, bad ones are refused",
          "[hierarchy][wire]") {
  const SwitchTree tree = two_level_tree();
  const HierarchyPlan plan(8, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}, &tree);
  for (Rank r : {0, 4, 7}) {
    Placement p = plan.placement(r);
    const wire::GroupsMsgBody sent{{p.group}, p.links};
    const auto back = wire::read_groups(wire::make_groups(sent));
    REQUIRE(std::holds_alternative<wire::GroupsMsgBody>(back));
    CHECK(std::get<wire::GroupsMsgBody>(back).groups == sent.groups);
    CHECK(std::get<wire::GroupsMsgBody>(back).links == sent.links);
  }
  const wire::GroupsMsgBody plain{{{0, 1}, {2}}, std::nullopt};
  const wire::Frame frame = wire::make_groups(plain);
  CHECK_FALSE(std::get<wire::GroupsMsgBody>(wire::read_groups(frame)).links);
  wire::LeaderLinks uneven;
  uneven.leader = 0;
  uneven.below = {2, 3};
  uneven.below_via = {2};
  const auto bad = wire::read_groups(wire::make_groups({{{0, 1}}, uneven}));
  CHECK(std::holds_alternative<wire::DecodeError>(bad));
  wire::Frame odd = frame;
  odd.payload.push_back(7);  // an extension this version does not know
  CHECK(std::holds_alternative<wire::DecodeError>(wire::read_groups(odd)));
}
