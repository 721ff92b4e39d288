// [network.dragonfly] (issue 13, paper 002): a Dragonfly of groups, chassis, routers and nodes
// in the shape of SimGrid's DragonflyZone, with bandwidth, latency and parallel link count per
// link class. The routers become the network's switches (dragonfly_switches).
#include "readers.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"

namespace tsunagi::scenario {
namespace {

constexpr double kGbps = 1e9 / 8;  // bytes/s
// The largest Dragonfly measured to finish in every shape tried (docs/scenario-format.md,
// "Largest networks"): 128 routers took 1.6 s of CPU on SimGrid; of two with 256, 4 x 8 x 8
// took 37 s and 8 x 4 x 8 had not finished after 13 min.
constexpr std::int64_t kMaxDragonflyRouters = 128;

int read_size(const Section& df, std::string_view key, const char* example) {
  if (!df.has(key)) {
    df.fail_here("[" + df.path() + "] has no " + std::string(key) + " — add e.g. " +
                 std::string(key) + " = " + example);
  }
  return df.count(key, 1, 1);
}

// A class table ({ count, bandwidth, latency }); missing figures fall back to the Dragonfly's
// own bandwidth and latency.
DragonflyLinks read_class(const Section& df, std::string_view key, const DragonflyLinks& base,
                          bool counted) {
  DragonflyLinks out = base;
  const auto links = df.sub(key);
  if (!links) return out;
  if (counted) out.count = links->count("count", 1, 1, kMaxParallelLinks);
  out.bandwidth = links->bandwidth("bandwidth", base.bandwidth);
  out.latency = links->duration("latency", base.latency);
  return out;
}

// A class table for links that this shape does not have would be silently ignored, and an
// ignored value is a wrong experiment nobody notices; refuse it like a root switch's uplink.
void check_unused_class(const Section& df, std::string_view key, std::string_view size_key,
                        int size, const char* why) {
  if (size == 1 && df.has(key)) {
    df.fail(key, df.path_of(key) + " is given but " + std::string(size_key) + " = 1: " + why +
                     " — remove it (or raise " + std::string(size_key) + ")");
  }
}

void check_sizes(const Section& df, const DragonflySpec& spec) {
  // Saturating products: 2^22 groups x 2^22 chassis x 2^22 routers wrapped around int64 and
  // loaded as a Dragonfly of 0 routers (issue 29).
  const std::int64_t routers =
      capped_product({spec.groups, spec.chassis, spec.routers}, kMaxDragonflyRouters);
  if (routers > kMaxDragonflyRouters) {
    df.fail_here("this Dragonfly has more than " + std::to_string(kMaxDragonflyRouters) +
                 " routers (groups x chassis x routers) — lower groups, chassis or routers");
  }
  if (capped_product({routers, spec.nodes}, max_processes()) > max_processes()) {
    df.fail("nodes", "this Dragonfly has more than " + std::to_string(max_processes()) +
                         " nodes (routers x nodes) — lower nodes");
  }
  // Group g reaches group h through router number h of its chassis 0 (SimGrid's rule), so
  // every group number must be a router number.
  if (spec.groups > spec.routers) {
    df.fail("groups", "groups = " + std::to_string(spec.groups) +
                          " but routers = " + std::to_string(spec.routers) +
                          ": the link to group h leaves from router h of chassis 0 (SimGrid's "
                          "Dragonfly), so there can be at most as many groups as routers per "
                          "chassis — lower groups or raise routers");
  }
}

}  // namespace

DragonflySpec read_dragonfly(const Section& network, const Section& df) {
  refuse_other_shapes(network, "dragonfly", "a Dragonfly's routers are its switches");
  DragonflySpec spec;
  spec.groups = read_size(df, "groups", "2");
  spec.chassis = read_size(df, "chassis", "2");
  spec.routers = read_size(df, "routers", "4");
  spec.nodes = read_size(df, "nodes", "4");
  check_sizes(df, spec);
  check_unused_class(df, "green", "routers", spec.routers,
                     "a chassis of one router has no links between routers");
  check_unused_class(df, "black", "chassis", spec.chassis,
                     "a group of one chassis has no links between chassis");
  check_unused_class(df, "blue", "groups", spec.groups,
                     "a single group has no links between groups");
  DragonflyLinks base;
  base.bandwidth = df.bandwidth("bandwidth", kGbps);
  base.latency = df.duration("latency", 5 * kNsPerUs);
  spec.node = read_class(df, "node", base, false);
  spec.green = read_class(df, "green", base, true);
  spec.black = read_class(df, "black", base, true);
  spec.blue = read_class(df, "blue", base, true);
  return spec;
}

}  // namespace tsunagi::scenario
