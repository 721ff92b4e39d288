// Dragonflies on SimGrid (issue 13): routes of the platform as SimGrid reports them, every
// pair against the scenario's routes, and SimGrid's own DragonflyZone as the reference for
// numbering, link order and routing.
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "engine_setup.hpp"
#include "platform.hpp"
#include "test_support.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace sg4 = simgrid::s4u;
using namespace tsunagi;
using scenario::DragonflySpec;

namespace {

scenario::Scenario load(const std::string& relative) {
  return scenario::load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + relative);
}

sim::simgrid::Platform build(const scenario::Scenario& s) {
  sim::simgrid::configure_engine(s);
  return sim::simgrid::build_platform(s.network, sim::simgrid::platform_options(s));
}

std::vector<std::string> link_names(const sg4::Host* from, const sg4::Host* to,
                                    double* latency = nullptr) {
  std::vector<sg4::Link*> links;
  double seconds = 0;
  from->route_to(to, links, &seconds);
  if (latency) *latency = seconds;
  std::vector<std::string> names;
  for (const sg4::Link* link : links) names.push_back(link->get_name());
  return names;
}

// The routers a route crosses, read off its router links ("green:g0.c0.r0-g0.c0.r1_UP").
std::vector<std::string> routers_crossed(const std::string& first,
                                         const std::vector<std::string>& links) {
  std::vector<std::string> routers{first};
  for (const std::string& link : links) {
    const auto colon = link.find(':');
    if (colon == std::string::npos) continue;  // a node link
    const std::string ends = link.substr(colon + 1, link.rfind('_') - colon - 1);
    const std::string a = ends.substr(0, ends.find('-'));
    const std::string b = ends.substr(ends.find('-') + 1);
    routers.push_back(routers.back() == a ? b : a);
  }
  return routers;
}

std::vector<std::string> names_of(const DragonflySpec& df, const std::vector<int>& routers) {
  std::vector<std::string> out;
  for (int r : routers) out.push_back(scenario::router_name(scenario::router_coords(df, r)));
  return out;
}

}  // namespace

TEST_CASE("dragonfly platform: routes as SimGrid reports them", "[dragonfly]") {
  test::EngineHolder engine;
  const scenario::Scenario s = load("teaching/dragonfly-16.toml");
  const sim::simgrid::Platform p = build(s);
  REQUIRE(p.hosts.size() == 16);
  CHECK(p.hosts[5]->get_name() == "g0.c1.r0-h01");
  double latency = 0;
  // Same router: the two node links.
  CHECK(link_names(p.hosts[0], p.hosts[1], &latency) ==
        std::vector<std::string>{"g0.c0.r0-h00.link_UP", "g0.c0.r0-h01.link_DOWN"});
  CHECK(latency == Approx(4e-6));
  // Inside a group, to another chassis and router: green first, then black.
  CHECK(link_names(p.hosts[4], p.hosts[3]) ==
        std::vector<std::string>{"g0.c1.r0-h00.link_UP", "green:g0.c1.r0-g0.c1.r1_UP",
                                 "black:g0.c0.r1-g0.c1.r1_DOWN", "g0.c0.r1-h01.link_DOWN"});
  // Across groups: to the router holding the blue link (r1 of chassis 0), blue, then the
  // target group's chassis 0, green and black.
  CHECK(link_names(p.hosts[4], p.hosts[15], &latency) ==
        std::vector<std::string>{"g0.c1.r0-h00.link_UP", "green:g0.c1.r0-g0.c1.r1_UP",
                                 "black:g0.c0.r1-g0.c1.r1_DOWN", "blue:g0.c0.r1-g1.c0.r0_UP",
                                 "green:g1.c0.r0-g1.c0.r1_UP", "black:g1.c0.r1-g1.c1.r1_UP",
                                 "g1.c1.r1-h01.link_DOWN"});
  CHECK(latency == Approx(7 * 2e-6));
  // The rendezvous is an extra node on router g0.c0.r0.
  CHECK(link_names(p.hosts[2], p.rendezvous) ==
        std::vector<std::string>{"g0.c0.r1-h00.link_UP", "green:g0.c0.r0-g0.c0.r1_DOWN",
                                 "rendezvous.link_DOWN"});
  CHECK(link_names(p.hosts[7], p.hosts[7]) == std::vector<std::string>{"g0.c1.r1-h01.lo"});
}

TEST_CASE("dragonfly platform: parallel links are one link of count x bandwidth", "[dragonfly]") {
  test::EngineHolder engine;
  const scenario::Scenario s = load("teaching/dragonfly-64.toml");
  build(s);
  auto* e = sg4::Engine::get_instance();
  CHECK(e->link_by_name("black:g0.c0.r2-g0.c1.r2_UP")->get_bandwidth() == Approx(2 * 5e9 / 8));
  CHECK(e->link_by_name("blue:g0.c0.r1-g1.c0.r0_DOWN")->get_bandwidth() == Approx(2 * 5e9 / 8));
  CHECK(e->link_by_name("green:g1.c1.r0-g1.c1.r3_UP")->get_latency() == Approx(1e-6));
}

TEST_CASE("dragonfly platform: every pair's route is the scenario's", "[dragonfly]") {
  test::EngineHolder engine;
  const scenario::Scenario s = load("teaching/dragonfly-64.toml");
  const DragonflySpec& df = *s.network.dragonfly;
  const sim::simgrid::Platform p = build(s);
  const auto hosts = scenario::enumerate_hosts(s.network);
  for (std::size_t a = 0; a < hosts.size(); ++a) {
    for (std::size_t b = 0; b < hosts.size(); ++b) {
      if (a == b) continue;
      const int ra = hosts[a].switch_index;
      const int rb = hosts[b].switch_index;
      const std::vector<std::string> links = link_names(p.hosts[a], p.hosts[b]);
      INFO(hosts[a].host << " -> " << hosts[b].host);
      CHECK(routers_crossed(s.network.switches[static_cast<std::size_t>(ra)].name, links) ==
            names_of(df, scenario::dragonfly_router_path(df, ra, rb)));
      CHECK(links.front() == hosts[a].host + ".link_UP");
      CHECK(links.back() == hosts[b].host + ".link_DOWN");
    }
  }
}
