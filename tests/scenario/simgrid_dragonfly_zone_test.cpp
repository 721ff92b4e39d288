// SimGrid's own DragonflyZone (create_dragonfly_zone) as the reference for the Dragonfly the
// backends build (issue 13): node i of a scenario is SimGrid's node i, router links come in
// SimGrid's order, and every route is SimGrid's — except one class of pairs that SimGrid 3.32
// routes through links that do not form a path (docs/simgrid.md, "Dragonfly").
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "test_support.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"

namespace sg4 = simgrid::s4u;
using namespace tsunagi;
using scenario::DragonflyClass;
using scenario::DragonflyCoords;
using scenario::DragonflySpec;

namespace {

// Nodes named by id; SimGrid hands the callback the coordinates (group, chassis, router, node).
std::vector<std::vector<unsigned long>> coords_seen;

sg4::NetZone* simgrid_zone(const DragonflySpec& df) {
  sg4::ClusterCallbacks callbacks(
      [](sg4::NetZone* zone, const std::vector<unsigned long>& coords, unsigned long id) {
        coords_seen.push_back(coords);
        const sg4::Host* host = zone->create_host("n" + std::to_string(id), 1e9);
        return std::make_pair(host->get_netpoint(),
                              static_cast<simgrid::kernel::routing::NetPoint*>(nullptr));
      });
  auto u = [](int v) { return static_cast<unsigned>(v); };
  sg4::NetZone* zone = sg4::create_dragonfly_zone(
      "reference", nullptr,
      sg4::DragonflyParams({u(df.groups), 1}, {u(df.chassis), 1}, {u(df.routers), 1}, u(df.nodes)),
      callbacks, 1e9, 1e-6, sg4::Link::SharingPolicy::SPLITDUPLEX);
  zone->seal();
  return zone;
}

// SimGrid numbers its links in creation order (the number ends each name): the node links
// first (router by router), then the router links, which must be dragonfly_links' order.
struct SimgridLink {
  std::string kind;  // "local", "green", "black", "blue"
  int number = 0;
};
SimgridLink parse(const std::string& name) {
  const std::string bare = name.substr(0, name.rfind('_'));  // without _UP / _DOWN
  return {name.substr(0, name.find('_')), std::stoi(bare.substr(bare.rfind('_') + 1))};
}

// The router links of SimGrid's route between a node of `from` and a node of `to`, as
// indices into dragonfly_links.
std::vector<int> simgrid_route(const DragonflySpec& df, int from, int to) {
  std::vector<sg4::Link*> links;
  double latency = 0;
  auto* e = sg4::Engine::get_instance();
  e->host_by_name("n" + std::to_string(from * df.nodes))
      ->route_to(e->host_by_name("n" + std::to_string(to * df.nodes)), links, &latency);
  const auto all = scenario::dragonfly_links(df);
  const int node_links = scenario::router_count(df) * df.nodes;
  std::vector<int> out;
  for (const sg4::Link* link : links) {
    const SimgridLink l = parse(link->get_name());
    if (l.kind == "local") continue;
    const int k = l.number - node_links;
    REQUIRE(k >= 0);
    REQUIRE(k < static_cast<int>(all.size()));
    CHECK(l.kind == scenario::to_string(all[static_cast<std::size_t>(k)].kind));
    out.push_back(k);
  }
  return out;
}

int link_between(const std::vector<scenario::DragonflyLink>& all, int a, int b) {
  for (std::size_t k = 0; k < all.size(); ++k)
    if (all[k].a == std::min(a, b) && all[k].b == std::max(a, b)) return static_cast<int>(k);
  FAIL("no link between routers " << a << " and " << b);
  return -1;
}

// Our route as link indices.
std::vector<int> our_route(const DragonflySpec& df, int from, int to) {
  const auto all = scenario::dragonfly_links(df);
  const auto path = scenario::dragonfly_router_path(df, from, to);
  std::vector<int> out;
  for (std::size_t i = 1; i < path.size(); ++i)
    out.push_back(link_between(all, path[i - 1], path[i]));
  return out;
}

// SimGrid 3.32, DragonflyZone::get_local_route: after the green hop inside a group it takes
// the current router to be in chassis 0, whatever chassis the route is in. From a chassis
// other than 0 to another router number it then lists the green link, and the black link
// from chassis 0 to the target's chassis (none when that is chassis 0).
std::vector<int> simgrid_3_32_route(const DragonflySpec& df, int from, int to) {
  const auto all = scenario::dragonfly_links(df);
  const DragonflyCoords a = scenario::router_coords(df, from);
  const DragonflyCoords b = scenario::router_coords(df, to);
  std::vector<int> out{
      link_between(all, from, scenario::router_index(df, {a.group, a.chassis, b.router}))};
  if (b.chassis != 0)
    out.push_back(link_between(all, scenario::router_index(df, {a.group, 0, b.router}), to));
  return out;
}

bool misrouted_by_simgrid(const DragonflySpec& df, int from, int to) {
  const DragonflyCoords a = scenario::router_coords(df, from);
  const DragonflyCoords b = scenario::router_coords(df, to);
  return a.group == b.group && a.chassis != 0 && a.router != b.router;
}

}  // namespace

TEST_CASE("dragonfly: SimGrid's own zone numbers nodes and routes as the scenario does",
          "[dragonfly]") {
  test::EngineHolder engine;
  DragonflySpec df;  // SimGrid's "3,1;3,1;4,1;2": three groups, three chassis, every class
  df.groups = 3;
  df.chassis = 3;
  df.routers = 4;
  df.nodes = 2;
  simgrid_zone(df);
  // Node i has the coordinates of the scenario's node i.
  REQUIRE(coords_seen.size() == 72);
  for (int i = 0; i < 72; ++i) {
    const DragonflyCoords c = scenario::router_coords(df, i / df.nodes);
    CHECK(coords_seen[static_cast<std::size_t>(i)] ==
          std::vector<unsigned long>{
              static_cast<unsigned long>(c.group), static_cast<unsigned long>(c.chassis),
              static_cast<unsigned long>(c.router), static_cast<unsigned long>(i % df.nodes)});
  }
  int misrouted = 0;
  for (int a = 0; a < scenario::router_count(df); ++a) {
    for (int b = 0; b < scenario::router_count(df); ++b) {
      if (a == b) continue;
      INFO("router " << a << " -> " << b);
      if (misrouted_by_simgrid(df, a, b)) {
        ++misrouted;
        CHECK(simgrid_route(df, a, b) == simgrid_3_32_route(df, a, b));
      } else {
        CHECK(simgrid_route(df, a, b) == our_route(df, a, b));
      }
    }
  }
  // Per group: 2 chassis other than 0 x 4 routers x 3 other router numbers x 3 chassis.
  CHECK(misrouted == 3 * 2 * 4 * 3 * 3);
}
