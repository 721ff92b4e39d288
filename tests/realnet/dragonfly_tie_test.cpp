// Why realnet needs the core's tie tolerance to make SimGrid's decisions on dragonfly-16
// (docs/realnet.md, "Dragonfly"): with paper 000's cut rule (largest change of step, first on
// exact ties; tie_tolerance = 0) the router groups of a 2 x 2 x 2 x 2 Dragonfly rest on a tie
// for every choice of per-class latencies. Exact RTTs (SimGrid's route probe, ns-3) take the
// first of the tied steps, which is the router; measured RTTs break the tie by noise. Checked
// with the core's own infer_own_switch on exact RTT rows built from the scenario's routes:
// shrinking each node's first step by 1 ns moves some node's cut off its router mate, whatever
// the latencies. With the default tie tolerance (innermost of near-equal steps) rows whose
// steps are near-equal keep the routers when the first step shrinks by 10 %.
#include <catch2/catch.hpp>
#include <vector>

#include "tsunagi/model/topology/switch_inference.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;

namespace {

DragonflyClass class_between(const DragonflySpec& spec, int a, int b) {
  const DragonflyCoords x = router_coords(spec, a);
  const DragonflyCoords y = router_coords(spec, b);
  if (x.group != y.group) return DragonflyClass::Blue;
  return x.chassis != y.chassis ? DragonflyClass::Black : DragonflyClass::Green;
}

TimeNs one_way(const DragonflySpec& spec, int from, int to) {
  const std::vector<int> path = dragonfly_router_path(spec, from, to);
  TimeNs latency = 2 * spec.node.latency;
  for (std::size_t i = 0; i + 1 < path.size(); ++i)
    latency += link_figures(spec, class_between(spec, path[i], path[i + 1])).latency;
  return latency;
}

// Node `me`'s exact RTT row; with `shrink`, its nearest other router's nodes 1 ns nearer.
std::vector<RttSample> row_of(const DragonflySpec& spec, int me, TimeNs shrink) {
  const int own = me / spec.nodes;
  const int nodes = router_count(spec) * spec.nodes;
  std::vector<RttSample> row;
  TimeNs nearest = -1;
  for (int peer = 0; peer < nodes; ++peer) {
    if (peer == me) continue;
    const int router = peer / spec.nodes;
    const TimeNs rtt = one_way(spec, own, router) + one_way(spec, router, own);
    row.push_back({peer, rtt});
    if (router != own && (nearest < 0 || rtt < nearest)) nearest = rtt;
  }
  for (RttSample& sample : row)
    if (sample.rtt == nearest) sample.rtt -= shrink;
  return row;
}

// Every node names exactly the other node of its router.
bool routers_found(const DragonflySpec& spec, TimeNs shrink, const InferenceConfig& config) {
  const int nodes = router_count(spec) * spec.nodes;
  for (int me = 0; me < nodes; ++me) {
    std::vector<Rank> mates;
    for (int peer = me / spec.nodes * spec.nodes; peer < (me / spec.nodes + 1) * spec.nodes; ++peer)
      if (peer != me) mates.push_back(peer);
    if (infer_own_switch(row_of(spec, me, shrink), config).near != mates) return false;
  }
  return true;
}

DragonflySpec shape(TimeNs node, TimeNs green, TimeNs black, TimeNs blue) {
  DragonflySpec spec{};
  spec.groups = spec.chassis = spec.routers = spec.nodes = 2;
  spec.node = {1.25e9, node, 1};
  spec.green = {1.25e9, green, 1};
  spec.black = {1.25e9, black, 1};
  spec.blue = {1.25e9, blue, 1};
  return spec;
}

InferenceConfig paper_rule() {
  InferenceConfig config;
  config.tie_tolerance = 0;
  return config;
}

// The first step (mate -> nearest other router) made 10 % smaller: noise the tolerance absorbs.
TimeNs tenth_of_first_step(const DragonflySpec& spec) {
  const std::vector<RttSample> row = row_of(spec, 0, 0);
  TimeNs mate = -1, nearest = -1;
  for (const RttSample& s : row) {
    if (s.peer / spec.nodes == 0)
      mate = s.rtt;
    else if (nearest < 0 || s.rtt < nearest)
      nearest = s.rtt;
  }
  return (nearest - mate) / 10;
}

}  // namespace

TEST_CASE("dragonfly-16's router groups rest on a tie under paper 000's rule") {
  const std::vector<TimeNs> us{1, 2, 3, 4, 5, 7, 10, 15, 20};
  int exact = 0;
  int with_margin = 0;
  int tolerant = 0;
  int tolerant_with_margin = 0;
  for (TimeNs node : {1, 2, 5})
    for (TimeNs green : us)
      for (TimeNs black : us)
        for (TimeNs blue : us) {
          const DragonflySpec spec = shape(node * 1000, green * 1000, black * 1000, blue * 1000);
          const bool found = routers_found(spec, 0, paper_rule());
          exact += found ? 1 : 0;
          with_margin += found && routers_found(spec, 1, paper_rule()) ? 1 : 0;
          const InferenceConfig tolerant_rule;  // the default tie_tolerance
          const bool kept = routers_found(spec, 0, tolerant_rule);
          tolerant += kept ? 1 : 0;
          tolerant_with_margin +=
              kept && routers_found(spec, tenth_of_first_step(spec), tolerant_rule) ? 1 : 0;
        }
  // Exact RTTs find the routers for some latencies (the file's 2 us everywhere among them) ...
  CHECK(exact > 0);
  CHECK(routers_found(shape(2000, 2000, 2000, 2000), 0, paper_rule()));
  // ... but never with as much as 1 ns to spare.
  CHECK(with_margin == 0);
  // With the tie tolerance the routers come out in more settings, and in many of them (2 us
  // everywhere, the file's, among them) they survive a 10 % smaller first step. Settings where
  // a later step is larger by more than the tolerance stay fragile: the group condition of
  // docs/tree-inference.md does not hold there, and result.json says so.
  CHECK(tolerant >= exact);
  CHECK(tolerant_with_margin > 0);
  CHECK(routers_found(shape(2000, 2000, 2000, 2000),
                      tenth_of_first_step(shape(2000, 2000, 2000, 2000)), InferenceConfig{}));
}
