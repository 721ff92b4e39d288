// Group-derived routes: over random group layouts of the topology-aware plan, following next
// hops from any node reaches any destination in at most two hops, and still arrives (in at most
// three) after static connections are lost, as long as a group-mate with a link remains.
#include <catch2/catch.hpp>

#include <algorithm>

#include "tsunagi/model/overlay/group_routes.hpp"
#include "tsunagi/model/overlay/plan.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;

namespace {

Groups random_groups(int n, int group_count, Rng& rng) {
  std::vector<Rank> ranks(static_cast<std::size_t>(n));
  for (Rank r = 0; r < n; ++r) ranks[static_cast<std::size_t>(r)] = r;
  for (std::size_t i = ranks.size(); i > 1; --i) {
    std::swap(ranks[i - 1], ranks[rng.uniform(i)]);
  }
  Groups groups(static_cast<std::size_t>(group_count));
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    // Uneven sizes: the first group gets a bigger share.
    const std::size_t g = rng.uniform01() < 0.3 ? 0 : rng.uniform(groups.size());
    groups[g].push_back(ranks[i]);
  }
  groups.erase(std::remove_if(groups.begin(), groups.end(), [](auto& g) { return g.empty(); }),
               groups.end());
  return groups;
}

std::vector<GroupRoutes> build(int n, const Groups& groups) {
  const Groups plan_groups = normalise_plan_groups(n, groups);
  std::vector<GroupRoutes> routes;
  for (Rank u = 0; u < n; ++u) {
    routes.emplace_back(u, n, plan_groups,
                        plan_neighbors(PlanKind::TopologyAware, u, n, groups, 0, 1));
  }
  return routes;
}

// Hops from src to dst following next hops, or -1 when it breaks or loops.
int walk(const std::vector<GroupRoutes>& routes, Rank src, Rank dst) {
  Rank at = src;
  for (int hops = 0; hops <= 8; ++hops) {
    if (at == dst) return hops;
    at = routes[static_cast<std::size_t>(at)].next_hop(dst);
    if (at == kNoRank) return -1;
  }
  return -1;
}

}  // namespace

TEST_CASE("group routes reach every destination in at most two hops", "[group_routes]") {
  Rng rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    const int n = 2 + static_cast<int>(rng.uniform(60));
    const int group_count = 1 + static_cast<int>(rng.uniform(9));
    const Groups groups = random_groups(n, group_count, rng);
    const auto routes = build(n, groups);
    for (Rank u = 0; u < n; ++u) {
      for (Rank v = 0; v < n; ++v) {
        const int hops = walk(routes, u, v);
        INFO("n=" << n << " u=" << u << " v=" << v);
        REQUIRE(hops >= 0);
        CHECK(hops <= 2);
        CHECK(routes[static_cast<std::size_t>(u)].distance(v) == hops);
      }
    }
  }
}

TEST_CASE("group routes go around lost links through a group-mate", "[group_routes]") {
  // Two groups of four: 0-3 and 4-7. Rank 0's only link into the other group is 4.
  const Groups groups = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  auto routes = build(8, groups);
  REQUIRE(routes[0].next_hop(6) == 4);
  routes[0].drop_neighbor(4);
  routes[4].drop_neighbor(0);
  const Rank via = routes[0].next_hop(6);
  CHECK(via == 1);  // the next group-mate after rank 0
  CHECK(routes[0].distance(6) == 3);
  CHECK(walk(routes, 0, 6) == 3);
  CHECK(walk(routes, 0, 4) == 3);  // even the lost neighbour itself is reached around
}

TEST_CASE("group routes report unreachable destinations", "[group_routes]") {
  GroupRoutes lonely(0, 3, {{0}, {1}, {2}}, {});
  CHECK(lonely.next_hop(0) == 0);
  CHECK(lonely.next_hop(1) == kNoRank);
  CHECK(lonely.next_hop(5) == kNoRank);
  CHECK(lonely.known() == 1);
  CHECK(lonely.distance(2) == GroupRoutes::kUnreachable);
}
