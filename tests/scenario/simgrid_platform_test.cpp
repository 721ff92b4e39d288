// The SimGrid platform builder: routes follow the switch tree exactly, and it scales.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include "engine_setup.hpp"
#include "platform.hpp"
#include "test_support.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace sg4 = simgrid::s4u;
using namespace tsunagi;
using tsunagi::sim::simgrid::build_platform;
using tsunagi::sim::simgrid::Platform;

namespace {

struct Route {
  std::vector<std::string> links;
  double latency = 0;
};

Route route(const sg4::Host* from, const sg4::Host* to) {
  std::vector<sg4::Link*> links;
  double latency = 0;
  from->route_to(to, links, &latency);
  Route r;
  r.latency = latency;
  for (const auto* link : links) r.links.push_back(link->get_name());
  return r;
}

sg4::Host* host(const std::string& name) {
  return sg4::Engine::get_instance()->host_by_name(name);
}

Platform build(const scenario::Scenario& s) {
  sim::simgrid::configure_engine(s);
  return build_platform(s.network, sim::simgrid::platform_options(s));
}

}  // namespace

TEST_CASE("platform: routes go host link then uplinks to the common ancestor then host link") {
  test::EngineHolder engine;
  const scenario::Scenario s = test::three_level_scenario();
  const Platform p = build(s);
  REQUIRE(p.hosts.size() == 7);
  REQUIRE(p.hosts[1]->get_name() == "edge0-h00");

  {  // same switch: the two host links only
    const Route r = route(host("edge0-h00"), host("edge0-h01"));
    CHECK(r.links == std::vector<std::string>{"edge0-h00.link_UP", "edge0-h01.link_DOWN"});
    CHECK(r.latency == Approx(4e-6));
  }
  {  // sibling switches: up one uplink and down the other
    const Route r = route(host("edge0-h00"), host("edge1-h01"));
    CHECK(r.links == std::vector<std::string>{"edge0-h00.link_UP", "edge0.uplink_UP",
                                              "edge1.uplink_DOWN", "edge1-h01.link_DOWN"});
    CHECK(r.latency == Approx((2 + 20 + 30 + 3) * 1e-6));
  }
  {  // across the root: every uplink on the way, once
    const Route r = route(host("edge0-h01"), host("edge2-h00"));
    CHECK(r.links == std::vector<std::string>{"edge0-h01.link_UP", "edge0.uplink_UP",
                                              "agg0.uplink_UP", "edge2.uplink_DOWN",
                                              "edge2-h00.link_DOWN"});
    CHECK(r.latency == Approx((2 + 20 + 10 + 40 + 4) * 1e-6));
    const Route back = route(host("edge2-h00"), host("edge0-h01"));
    CHECK(back.links == std::vector<std::string>{"edge2-h00.link_UP", "edge2.uplink_UP",
                                                 "agg0.uplink_DOWN", "edge0.uplink_DOWN",
                                                 "edge0-h01.link_DOWN"});
  }
  {  // a host on an inner switch reaches a host below it
    const Route r = route(host("core-h00"), host("edge1-h00"));
    CHECK(r.links == std::vector<std::string>{"core-h00.link_UP", "agg0.uplink_DOWN",
                                              "edge1.uplink_DOWN", "edge1-h00.link_DOWN"});
    CHECK(r.latency == Approx((1 + 10 + 30 + 3) * 1e-6));
  }
  {  // the rendezvous hangs off the root switch like its hosts
    const Route r = route(host("edge0-h00"), p.rendezvous);
    CHECK(r.links == std::vector<std::string>{"edge0-h00.link_UP", "edge0.uplink_UP",
                                              "agg0.uplink_UP", "rendezvous.link_DOWN"});
    CHECK(r.latency == Approx((2 + 20 + 10 + 1) * 1e-6));
  }
  {  // same host: the host's loopback only
    const Route r = route(host("edge1-h00"), host("edge1-h00"));
    CHECK(r.links == std::vector<std::string>{"edge1-h00.lo"});
    CHECK(r.latency == Approx(0.5e-6));
  }
}

// What the switch tree says the route between two hosts is: the source's host link up, the
// uplinks from its switch to the lowest common ancestor, the uplinks down to the target's switch,
// the target's host link down; one host: its loopback.
Route tree_route(const scenario::Network& network, const std::string& a, int switch_a,
                 const std::string& b, int switch_b) {
  Route r;
  if (a == b) return Route{{a + ".lo"}, static_cast<double>(network.loopback_latency) * 1e-9};
  const auto index_of = [&network](const std::string& name) {
    for (std::size_t s = 0; s < network.switches.size(); ++s)
      if (network.switches[s].name == name) return static_cast<int>(s);
    return -1;
  };
  const auto chain = [&](int s) {  // s, its parent, ..., the root
    std::vector<int> up;
    for (; s >= 0; s = index_of(network.switches[static_cast<std::size_t>(s)].parent))
      up.push_back(s);
    return up;
  };
  std::vector<int> up = chain(switch_a);
  std::vector<int> down = chain(switch_b);
  while (!up.empty() && !down.empty() && up.back() == down.back()) {  // drop the common part
    up.pop_back();
    down.pop_back();
  }
  const auto& spec = [&network](int s) -> const scenario::SwitchSpec& {
    return network.switches[static_cast<std::size_t>(s)];
  };
  double latency = static_cast<double>(spec(switch_a).host_latency + spec(switch_b).host_latency);
  r.links.push_back(a + ".link_UP");
  for (int s : up) {
    r.links.push_back(spec(s).name + ".uplink_UP");
    latency += static_cast<double>(spec(s).uplink_latency);
  }
  for (auto it = down.rbegin(); it != down.rend(); ++it) {
    r.links.push_back(spec(*it).name + ".uplink_DOWN");
    latency += static_cast<double>(spec(*it).uplink_latency);
  }
  r.links.push_back(b + ".link_DOWN");
  r.latency = latency * 1e-9;
  return r;
}

TEST_CASE("platform: every pair of hosts of an uneven tree is routed along the tree") {
  // Zones join the tree at the end of the build (zone_assembly.hpp); the routes must be the
  // tree's all the same, at every depth and with hosts on inner switches.
  test::EngineHolder engine;
  scenario::Scenario s;
  s.name = "uneven";
  s.network.switches = {
      test::make_switch("r", "", 1, 1, 0),   test::make_switch("a", "r", 0, 2, 10),
      test::make_switch("b", "a", 2, 3, 20), test::make_switch("d", "b", 1, 4, 30),
      test::make_switch("c", "a", 3, 5, 40), test::make_switch("e", "r", 2, 6, 50),
      test::make_switch("f", "e", 1, 7, 60)};
  s.network.loopback_latency = 500;
  s.network.loopback_bandwidth = 10e9;
  s.placement.procs_per_host = 1;
  s.protocol.processes = scenario::process_count(s);
  const Platform p = build(s);
  std::vector<std::pair<const sg4::Host*, int>> hosts;
  const std::vector<scenario::HostSlot> slots = scenario::enumerate_hosts(s.network);
  REQUIRE(p.hosts.size() == slots.size());
  for (std::size_t i = 0; i < slots.size(); ++i)
    hosts.emplace_back(p.hosts[i], slots[i].switch_index);
  hosts.emplace_back(p.rendezvous, 0);
  for (const auto& [from, from_switch] : hosts) {
    for (const auto& [to, to_switch] : hosts) {
      const Route want =
          tree_route(s.network, from->get_name(), from_switch, to->get_name(), to_switch);
      const Route got = route(from, to);
      INFO(from->get_name() << " -> " << to->get_name());
      CHECK(got.links == want.links);
      CHECK(got.latency == Approx(want.latency));
    }
  }
}

TEST_CASE("platform: bad trees are refused with a reason") {
  test::EngineHolder engine;
  scenario::Scenario s = test::three_level_scenario();
  s.network.switches[2].parent = "nowhere";
  sim::simgrid::configure_engine(s);
  CHECK_THROWS_WITH(build_platform(s.network, sim::simgrid::platform_options(s)),
                    Catch::Contains("nowhere"));
}

// Not timed (benchmarks go in docs/benchmarks.md: simgrid_platform_bench measures the build).
TEST_CASE("platform: 10000 hosts on 201 switches route correctly") {
  test::EngineHolder engine;
  const scenario::Scenario s = test::wide_scenario(200, 50);
  const Platform p = build(s);
  REQUIRE(p.hosts.size() == 10000);
  const Route r = route(p.hosts[0], p.hosts[9999]);
  CHECK(r.links.size() == 4);
  CHECK(r.latency == Approx((5 + 5 + 5 + 5) * 1e-6));
  CHECK(route(p.hosts[0], p.hosts[49]).links.size() == 2);
}

TEST_CASE("platform: clusters reach each other through both WAN links, relays on the root") {
  test::EngineHolder engine;
  const scenario::Scenario s = scenario::load_scenario_string(R"(name = "wan"
[network.wan]
rendezvous = "b"
[[network.cluster]]
name = "a"
tree = { levels = [{ fanout = 2, uplink_latency = "10us" }], hosts_per_leaf = 1 }
wan_latency = "3ms"
relays = 1
[[network.cluster]]
name = "b"
hosts = 1
wan_latency = "4ms"
policy = "nat"
relays = 1
relay_at = "gateway"
)",
                                                              "wan.toml");
  sim::simgrid::configure_engine(s);
  const Platform p =
      build_platform(s.network, sim::simgrid::platform_options(s), scenario::relay_slots(s));
  REQUIRE(p.hosts.size() == 3);
  REQUIRE(p.relays.size() == 2);
  CHECK(p.relays[0]->get_name() == "a-relay0");
  CHECK(p.relays[1]->get_name() == "b-gw0");
  {  // leaf of a -> b: host link, uplink, a's WAN link up, b's WAN link down, host link
    const Route r = route(host("a.0-h00"), host("b-h00"));
    CHECK(r.links == std::vector<std::string>{"a.0-h00.link_UP", "a.0.uplink_UP", "a.wan_UP",
                                              "b.wan_DOWN", "b-h00.link_DOWN"});
    CHECK(r.latency == Approx(5e-6 + 10e-6 + 3e-3 + 4e-3 + 5e-6));
  }
  {  // inside a cluster the WAN is not crossed
    const Route r = route(host("a.0-h00"), host("a-relay0"));
    CHECK(r.links ==
          std::vector<std::string>{"a.0-h00.link_UP", "a.0.uplink_UP", "a-relay0.link_DOWN"});
  }
  CHECK(p.rendezvous->get_name() == "rendezvous");
  CHECK(route(p.rendezvous, host("b-gw0")).links.size() == 2);  // both on b's root switch
}
