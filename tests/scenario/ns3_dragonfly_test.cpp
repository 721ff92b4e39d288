// Dragonflies on ns-3 (issue 13): the routers' static routes, read hop by hop off ns-3's own
// forwarding state, are the scenario's routes (SimGrid's, tests/scenario/
// simgrid_dragonfly_test.cpp) for every pair of nodes; the rendezvous sits on router 0.
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/scenarios/loader.hpp"
#include "tsunagi/sim/ns3/ns3_backend.hpp"
#include "tsunagi/sim/ns3/route_walk.hpp"

using namespace tsunagi;

namespace {

scenario::Scenario load(const std::string& relative) {
  return scenario::load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + relative);
}

// Walks every ordered pair of nodes through ns-3's routing tables and compares the routers
// crossed with dragonfly_router_path.
void check_every_route(const scenario::Scenario& s) {
  const scenario::DragonflySpec& df = *s.network.dragonfly;
  const sim::ns3::Ns3Spec spec = sim::ns3::spec_of(s);
  const auto hosts = scenario::enumerate_hosts(s.network);
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < static_cast<int>(hosts.size()); ++a)
    for (int b = 0; b < static_cast<int>(hosts.size()); ++b)
      if (a != b) pairs.emplace_back(a, b);
  const std::vector<std::vector<int>> paths = sim::ns3::switch_paths(spec, pairs);
  REQUIRE(paths.size() == pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const auto [a, b] = pairs[i];
    INFO(hosts[static_cast<std::size_t>(a)].host << " -> "
                                                 << hosts[static_cast<std::size_t>(b)].host);
    CHECK(paths[i] ==
          scenario::dragonfly_router_path(df, hosts[static_cast<std::size_t>(a)].switch_index,
                                          hosts[static_cast<std::size_t>(b)].switch_index));
  }
}

}  // namespace

TEST_CASE("ns3 dragonfly: every route of dragonfly-16 is SimGrid's", "[dragonfly]") {
  check_every_route(load("teaching/dragonfly-16.toml"));
}

TEST_CASE("ns3 dragonfly: every route of dragonfly-64 is SimGrid's", "[dragonfly]") {
  check_every_route(load("teaching/dragonfly-64.toml"));
}

TEST_CASE("ns3 dragonfly: router links, parallel links as one, the rendezvous on router 0",
          "[dragonfly]") {
  const scenario::Scenario s = load("teaching/dragonfly-64.toml");
  const sim::ns3::Ns3Spec spec = sim::ns3::spec_of(s);
  REQUIRE(spec.switches.size() == 16);
  for (const auto& sw : spec.switches) CHECK(sw.parent == -1);
  // 4 chassis x 6 green, 2 groups x 4 black, 1 blue; black and blue carry 2 x 5 Gbit/s.
  REQUIRE(spec.mesh.links.size() == 24 + 8 + 1);
  CHECK(spec.mesh.links[24].bandwidth == Approx(2 * 5e9 / 8));
  CHECK(spec.mesh.links[32].a == 1);
  CHECK(spec.mesh.links[32].b == 8);
  CHECK(spec.mesh.next[4][15] == 5);  // g0.c1.r0 to g1.c1.r3: green to r1 first
  // Router 0's block is 10.0.0.0/20; its 4 nodes take the first /30s, the rendezvous the 5th.
  CHECK(sim::ns3::endpoint_of(s, kNoRank) == "10.0.0.18:7000");
  CHECK(sim::ns3::endpoint_of(s, 5) == "10.0.16.6:7000");
}
