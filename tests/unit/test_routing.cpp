// Routing convergence: synchronous-round distance vector over random graphs, delivered in
// random interleavings, must give shortest distances and the lowest-ranked shortest next hop,
// the same whatever the message order.
#include <catch2/catch.hpp>

#include <deque>
#include <queue>

#include "tsunagi/model/overlay/routing.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;

namespace {

using Graph = std::vector<std::vector<Rank>>;

Graph random_graph(int n, double p, std::uint64_t seed, bool ring) {
  Rng rng(seed);
  Graph g(static_cast<std::size_t>(n));
  for (Rank u = 0; u < n; ++u) {
    for (Rank v = u + 1; v < n; ++v) {
      bool edge = rng.uniform01() < p || (ring && v == u + 1);
      if (edge) {
        g[static_cast<std::size_t>(u)].push_back(v);
        g[static_cast<std::size_t>(v)].push_back(u);
      }
    }
  }
  return g;
}

std::vector<int> bfs(const Graph& g, Rank src) {
  std::vector<int> dist(g.size(), -1);
  std::queue<Rank> q;
  dist[static_cast<std::size_t>(src)] = 0;
  q.push(src);
  while (!q.empty()) {
    Rank u = q.front();
    q.pop();
    for (Rank v : g[static_cast<std::size_t>(u)]) {
      if (dist[static_cast<std::size_t>(v)] < 0) {
        dist[static_cast<std::size_t>(v)] = dist[static_cast<std::size_t>(u)] + 1;
        q.push(v);
      }
    }
  }
  return dist;
}

// Runs the protocol with every message delivered in a random order (per-link FIFO kept).
std::vector<RoutingRounds> converge(const Graph& g, std::uint64_t order_seed) {
  int n = static_cast<int>(g.size());
  std::vector<RoutingRounds> nodes;
  for (Rank u = 0; u < n; ++u) nodes.emplace_back(u, n, g[static_cast<std::size_t>(u)]);
  struct Msg {
    Rank from, to;
    wire::RouteRoundMsg m;
  };
  std::vector<std::deque<Msg>> links;  // one FIFO per directed link, picked at random
  std::map<std::pair<Rank, Rank>, std::size_t> link_index;
  auto send_all = [&](Rank u) {
    while (auto m = nodes[static_cast<std::size_t>(u)].step()) {
      for (Rank v : g[static_cast<std::size_t>(u)]) {
        auto key = std::make_pair(u, v);
        if (!link_index.count(key)) {
          link_index[key] = links.size();
          links.emplace_back();
        }
        links[link_index[key]].push_back({u, v, *m});
      }
    }
  };
  for (Rank u = 0; u < n; ++u) send_all(u);
  Rng rng(order_seed);
  for (int guard = 0; guard < 1'000'000; ++guard) {
    std::vector<std::size_t> busy;
    for (std::size_t i = 0; i < links.size(); ++i)
      if (!links[i].empty()) busy.push_back(i);
    if (busy.empty()) break;
    auto& q = links[busy[rng.uniform(busy.size())]];
    Msg msg = q.front();
    q.pop_front();
    nodes[static_cast<std::size_t>(msg.to)].receive(msg.from, msg.m);
    send_all(msg.to);
  }
  return nodes;
}

}  // namespace

TEST_CASE("a lone node routes to itself and is done at once", "[routing]") {
  RoutingRounds r(0, 1, {});
  auto m = r.step();
  REQUIRE(m);
  CHECK(m->final);
  CHECK(r.done());
  CHECK(r.complete());
  CHECK(r.next_hop(0) == 0);
}

TEST_CASE("routes on a line: distances and next hops", "[routing]") {
  Graph g{{1}, {0, 2}, {1, 3}, {2}};
  auto nodes = converge(g, 1);
  for (auto& n : nodes) CHECK(n.done());
  CHECK(nodes[0].distance(3) == 3);
  CHECK(nodes[0].next_hop(3) == 1);
  CHECK(nodes[3].next_hop(0) == 2);
  CHECK(nodes[2].distance(2) == 0);
}

TEST_CASE("routes converge to shortest paths with lowest-rank ties, whatever the order",
          "[routing][property]") {
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    int n = 5 + static_cast<int>(seed % 30);
    Graph g = random_graph(n, 0.15, seed, true);
    auto a = converge(g, seed * 31);
    auto b = converge(g, seed * 77 + 5);
    for (Rank u = 0; u < n; ++u) {
      auto dist = bfs(g, u);
      const auto& node = a[static_cast<std::size_t>(u)];
      REQUIRE(node.done());
      REQUIRE(node.complete());
      for (Rank d = 0; d < n; ++d) {
        CHECK(node.distance(d) == dist[static_cast<std::size_t>(d)]);
        if (d == u) continue;
        // Expected next hop: the lowest neighbour one step closer to d.
        auto dd = bfs(g, d);
        Rank expect = kNoRank;
        for (Rank v : g[static_cast<std::size_t>(u)]) {
          if (dd[static_cast<std::size_t>(v)] == dist[static_cast<std::size_t>(d)] - 1 &&
              (expect == kNoRank || v < expect))
            expect = v;
        }
        CHECK(node.next_hop(d) == expect);
      }
      CHECK(node.next_hops() == b[static_cast<std::size_t>(u)].next_hops());
    }
  }
}

TEST_CASE("a disconnected overlay terminates with incomplete tables", "[routing]") {
  Graph g{{1}, {0}, {3}, {2}};
  auto nodes = converge(g, 3);
  for (auto& n : nodes) {
    CHECK(n.done());
    CHECK_FALSE(n.complete());
    CHECK(n.known() == 2);
  }
  CHECK(nodes[0].next_hop(2) == kNoRank);
}

TEST_CASE("round messages from non-neighbours are ignored", "[routing]") {
  RoutingRounds r(0, 3, {1});
  wire::RouteRoundMsg m{0, false, {{2, 0}}};
  CHECK_FALSE(r.receive(2, m));
  CHECK(r.receive(1, {0, false, {{1, 0}}}));
}
