// Ground truth of a Dragonfly network (issue 13): router numbering, links and routes, the same
// for every backend. Both simulators build their networks from these functions, so a route is
// the same list of routers in SimGrid and ns-3 (docs/scenario-format.md, "[network.dragonfly]").
//
// Numbering, link classes and the routing rule are those of SimGrid 3.32's DragonflyZone
// (src/kernel/routing/DragonflyZone.cpp): router index = (group x chassis + chassis) x routers +
// router, node index = router index x nodes + node; links are generated green, black, blue in
// SimGrid's loop order; routes are SimGrid's static minimal routes (docs/simgrid.md,
// "Dragonfly", has the one class of pairs where SimGrid's own zone lists other links).
#pragma once

#include <string>
#include <vector>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::scenario {

enum class DragonflyClass { Green, Black, Blue };

// "green", "black", "blue".
const char* to_string(DragonflyClass kind);

struct DragonflyCoords {
  int group = 0;
  int chassis = 0;  // within the group
  int router = 0;   // within the chassis (SimGrid's "blade")
  bool operator==(const DragonflyCoords&) const = default;
};

int router_count(const DragonflySpec& spec);
DragonflyCoords router_coords(const DragonflySpec& spec, int router);
int router_index(const DragonflySpec& spec, DragonflyCoords coords);

// "g0.c1.r3": the router's switch name; its nodes are "g0.c1.r3-h00", ... (enumerate_hosts).
std::string router_name(DragonflyCoords coords);

// The routers as Network::switches: roots in router order, `nodes` hosts each, wired with the
// node-link figures.
std::vector<SwitchSpec> dragonfly_switches(const DragonflySpec& spec);

// A link between two routers (a < b). Going from a to b is SimGrid's UP direction.
struct DragonflyLink {
  int a = 0;
  int b = 0;
  DragonflyClass kind = DragonflyClass::Green;
  bool operator==(const DragonflyLink&) const = default;
};

// Every router-to-router link in SimGrid's generation order: green (chassis by chassis, then
// router pairs), black (group, chassis pair, router), blue (group pairs).
std::vector<DragonflyLink> dragonfly_links(const DragonflySpec& spec);

// The figures of a class; bandwidth already multiplied by the class's parallel link count.
DragonflyLinks link_figures(const DragonflySpec& spec, DragonflyClass kind);

// The router after `from` on the way to `to` (from != to), by SimGrid's static minimal rule:
// to another group, first the router of this chassis that holds the link to that group (router
// number = target group), then chassis 0 (black), then the blue link; inside a group, first
// the target's router number in this chassis (green), then the target's chassis (black).
int dragonfly_next_router(const DragonflySpec& spec, int from, int to);

// The routers a message crosses, `from` and `to` included ({from} when they are equal).
std::vector<int> dragonfly_router_path(const DragonflySpec& spec, int from, int to);

}  // namespace tsunagi::scenario
