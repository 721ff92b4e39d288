// Dragonfly ground truth: numbering, links and routes after SimGrid 3.32's DragonflyZone.
#include "tsunagi/scenarios/dragonfly.hpp"

#include <stdexcept>

namespace tsunagi::scenario {
namespace {

int routers_per_group(const DragonflySpec& spec) {
  return spec.chassis * spec.routers;
}

void check_router(const DragonflySpec& spec, int router) {
  if (router < 0 || router >= router_count(spec))
    throw std::out_of_range("dragonfly: router " + std::to_string(router) + " of " +
                            std::to_string(router_count(spec)));
}

}  // namespace

const char* to_string(DragonflyClass kind) {
  switch (kind) {
    case DragonflyClass::Green:
      return "green";
    case DragonflyClass::Black:
      return "black";
    case DragonflyClass::Blue:
      return "blue";
  }
  return "?";
}

int router_count(const DragonflySpec& spec) {
  return spec.groups * routers_per_group(spec);
}

DragonflyCoords router_coords(const DragonflySpec& spec, int router) {
  check_router(spec, router);
  const int in_group = router % routers_per_group(spec);
  return {router / routers_per_group(spec), in_group / spec.routers, in_group % spec.routers};
}

int router_index(const DragonflySpec& spec, DragonflyCoords c) {
  return (c.group * spec.chassis + c.chassis) * spec.routers + c.router;
}

std::string router_name(DragonflyCoords c) {
  return "g" + std::to_string(c.group) + ".c" + std::to_string(c.chassis) + ".r" +
         std::to_string(c.router);
}

std::vector<SwitchSpec> dragonfly_switches(const DragonflySpec& spec) {
  std::vector<SwitchSpec> switches;
  for (int r = 0; r < router_count(spec); ++r) {
    SwitchSpec sw;
    sw.name = router_name(router_coords(spec, r));
    sw.hosts = spec.nodes;
    sw.host_bandwidth = spec.node.bandwidth;
    sw.host_latency = spec.node.latency;
    switches.push_back(sw);
  }
  return switches;
}

// The loops of SimGrid's DragonflyZone::generate_links, in its order, so that link k here is
// the k-th router link SimGrid creates (tests/scenario/simgrid_dragonfly_test.cpp relies on it).
std::vector<DragonflyLink> dragonfly_links(const DragonflySpec& spec) {
  std::vector<DragonflyLink> links;
  const int chassis_total = spec.groups * spec.chassis;
  for (int i = 0; i < chassis_total; ++i)
    for (int j = 0; j < spec.routers; ++j)
      for (int k = j + 1; k < spec.routers; ++k)
        links.push_back({i * spec.routers + j, i * spec.routers + k, DragonflyClass::Green});
  for (int g = 0; g < spec.groups; ++g)
    for (int j = 0; j < spec.chassis; ++j)
      for (int k = j + 1; k < spec.chassis; ++k)
        for (int r = 0; r < spec.routers; ++r)
          links.push_back({router_index(spec, {g, j, r}), router_index(spec, {g, k, r}),
                           DragonflyClass::Black});
  // Group g's link to group h leaves from router number h of g's chassis 0 (SimGrid: "router
  // n of each group is linked to group n"), hence groups <= routers (the loader checks it).
  for (int i = 0; i < spec.groups; ++i)
    for (int j = i + 1; j < spec.groups; ++j)
      links.push_back(
          {router_index(spec, {i, 0, j}), router_index(spec, {j, 0, i}), DragonflyClass::Blue});
  return links;
}

DragonflyLinks link_figures(const DragonflySpec& spec, DragonflyClass kind) {
  DragonflyLinks figures = kind == DragonflyClass::Green   ? spec.green
                           : kind == DragonflyClass::Black ? spec.black
                                                           : spec.blue;
  figures.bandwidth *= figures.count;
  return figures;
}

int dragonfly_next_router(const DragonflySpec& spec, int from, int to) {
  check_router(spec, to);
  if (from == to) throw std::invalid_argument("dragonfly: no next router from a router to itself");
  const DragonflyCoords here = router_coords(spec, from);
  const DragonflyCoords there = router_coords(spec, to);
  if (here.group != there.group) {
    if (here.router != there.group)
      return router_index(spec, {here.group, here.chassis, there.group});
    if (here.chassis != 0) return router_index(spec, {here.group, 0, there.group});
    return router_index(spec, {there.group, 0, here.group});
  }
  if (here.router != there.router)
    return router_index(spec, {here.group, here.chassis, there.router});
  return to;  // same router number in another chassis of the group: one black link
}

std::vector<int> dragonfly_router_path(const DragonflySpec& spec, int from, int to) {
  check_router(spec, from);
  std::vector<int> path{from};
  // Minimal routes have at most 5 router links; more means the rule is broken.
  while (path.back() != to) {
    if (path.size() > 6) throw std::logic_error("dragonfly: route longer than 5 links");
    path.push_back(dragonfly_next_router(spec, path.back(), to));
  }
  return path;
}

}  // namespace tsunagi::scenario
