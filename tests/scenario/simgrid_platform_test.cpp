// The SimGrid platform builder: routes follow the switch tree exactly, and it scales.
#include <chrono>
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

TEST_CASE("platform: bad trees are refused with a reason") {
  test::EngineHolder engine;
  scenario::Scenario s = test::three_level_scenario();
  s.network.switches[2].parent = "nowhere";
  sim::simgrid::configure_engine(s);
  CHECK_THROWS_WITH(build_platform(s.network, sim::simgrid::platform_options(s)),
                    Catch::Contains("nowhere"));
}

// How fast it builds is a benchmark (docs/benchmarks.md), not a check here: the WARN reports it.
TEST_CASE("platform: 10000 hosts on 201 switches build and route correctly") {
  test::EngineHolder engine;
  const scenario::Scenario s = test::wide_scenario(200, 50);
  const auto started = std::chrono::steady_clock::now();
  const Platform p = build(s);
  const double build_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  WARN("built 10,000 hosts on 201 switches in " << build_s << " s");
  REQUIRE(p.hosts.size() == 10000);
  const Route r = route(p.hosts[0], p.hosts[9999]);
  CHECK(r.links.size() == 4);
  CHECK(r.latency == Approx((5 + 5 + 5 + 5) * 1e-6));
  CHECK(route(p.hosts[0], p.hosts[49]).links.size() == 2);
}

TEST_CASE("platform: clusters reach each other through both WAN links; relays on the root") {
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
