// Engine creation and model configuration (docs/simgrid.md, "Network model").
#include "engine_setup.hpp"

#include <malloc.h>
#include <algorithm>
#include <array>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string>

#include <xbt/log.h>
#include <simgrid/s4u/Engine.hpp>

#include "time_units.hpp"

namespace tsunagi::sim::simgrid {
namespace {

// Flow-level models that route over the platform's links. SimGrid's "ns-3" model only handles
// one-link routes (docs/simgrid.md), so it is not offered.
constexpr std::array<const char*, 5> kNetworkModels = {"CM02", "LV08", "SMPI", "IB", "Constant"};

// Above this many actors, smaller stacks keep the memory and the kernel's map count in check
// (100k actors with 8 MiB stacks do not fit; docs/simgrid.md).
constexpr int kManyActors = 20000;
// Blocks glibc may map at once above kManyActors: room for every actor's stack and then some.
constexpr int kMaxMappedBlocks = 1 << 24;

void check_network_model(const std::string& model) {
  if (std::find(kNetworkModels.begin(), kNetworkModels.end(), model) != kNetworkModels.end())
    return;
  std::string known;
  for (const char* name : kNetworkModels) known += (known.empty() ? "" : ", ") + std::string(name);
  throw std::invalid_argument("simgrid.network_model '" + model + "' is not one of: " + known);
}

// TSUNAGI_SIMGRID_CFG="name:value name:value": SimGrid settings for experiments (what
// --cfg=name:value does for SimGrid programs), applied last so they win. docs/simgrid.md.
void apply_extra_config() {
  const char* extra = std::getenv("TSUNAGI_SIMGRID_CFG");
  if (extra == nullptr) return;
  std::istringstream settings(extra);
  std::string setting;
  while (settings >> setting) sg4::Engine::set_config(setting);
}

}  // namespace

std::unique_ptr<sg4::Engine> make_engine() {
  static char program[] = "tsunagi";
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer cannot follow SimGrid's own stack switching (it reports overflows on the
  // actors' stacks); one system thread per actor is slower but what it understands.
  static char threads[] = "--cfg=contexts/factory:thread";
  static int argc = 2;
  static char* argv[] = {program, threads, nullptr};
#else
  static int argc = 1;
  static char* argv[] = {program, nullptr};
#endif
  auto engine = std::make_unique<sg4::Engine>(&argc, argv);
  // SimGrid logs every configuration change at INFO; keep stderr for the run's own progress.
  xbt_log_control_set("root.thres:warning");
  return engine;
}

// --paje FILE: SimGrid's tracing of hosts and links (their bandwidth and speed in use over
// time, "uncategorized") into a Paje file. Times to the nanosecond, the core's clock tick
// (SimGrid's default of 6 digits would round a 6.84 ms run's phases to microseconds); the
// protocol phases as host states and the end of the trace are the backend's (paje_states.hpp,
// paje_end.hpp).
void configure_paje(const std::string& file) {
  if (file.empty()) return;
  sg4::Engine::set_config("tracing", true);
  sg4::Engine::set_config("tracing/uncategorized", true);
  sg4::Engine::set_config("tracing/filename", file);
  sg4::Engine::set_config("tracing/precision", 9);
}

void configure_engine(const scenario::Scenario& scenario, const SimgridOptions& options) {
  const std::string& model = scenario.simgrid.network_model;
  check_network_model(model);
  sg4::Engine::set_config("network/model:" + model);
  if (model == "CM02") {
    // CM02's own defaults, stated so the run does not depend on them: raw latencies and
    // bandwidths, and no RTT-unfairness in bandwidth sharing.
    sg4::Engine::set_config("network/latency-factor", 1.0);
    sg4::Engine::set_config("network/bandwidth-factor", 1.0);
    sg4::Engine::set_config("network/weight-S", 0.0);
  }
  // A flow never goes faster than window / (2 * route latency): SimGrid's default 4 MiB window
  // only bites on long-latency routes, as TCP's would.
  // Sites with per-pair RTTs and TCP stacks (issue 15) bound each stream by its own window
  // (World::stream_rate), so the global one steps aside there.
  sg4::Engine::set_config("network/TCP-gamma",
                          scenario::has_site_rtt(scenario.network) ? 1e15 : 4194304.0);
  // No 5% ACK load on the reverse route: links are full duplex and directions stay
  // independent, and the solver's systems stay small (twice as fast under probe storms).
  sg4::Engine::set_config("network/crosstraffic", false);
  // The star zones use explicit per-host loopback links; these only matter to zone kinds that
  // use the model's implicit loopback, set the same way for consistency.
  sg4::Engine::set_config("network/loopback-lat", to_seconds(scenario.network.loopback_latency));
  sg4::Engine::set_config("network/loopback-bw", scenario.network.loopback_bandwidth);
  // Completion dates are rounded to this many seconds: the core's clock ticks in nanoseconds.
  sg4::Engine::set_config("surf/precision", 1e-9);
  if (scenario::process_count(scenario) > kManyActors) {
    sg4::Engine::set_config("contexts/stack-size", 1024);
    sg4::Engine::set_config("contexts/guard-size", 0);
    // Without guard pages SimGrid takes stacks from malloc, zeroed. glibc serves a 1 MiB block
    // from the heap, zeroing every page, once its threshold for mmap has risen past it (it rises
    // as mapped blocks are freed): 32,000 actors started at 4.45 GB instead of 0.75 GB. A fixed
    // threshold keeps stacks mapped, so only the pages an actor touches are resident.
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    // glibc maps at most 65,536 blocks at once (M_MMAP_MAX) and serves the rest from the heap,
    // where each stack came out 138 KB resident instead of a few pages: at 100,000 processes
    // 56 KB per actor instead of 9 KB (TSUNAGI_SIMGRID_MEMORY; docs/benchmarks.md). Adjacent
    // stacks without guard pages merge into few memory maps, so the kernel's limit on maps
    // (vm.max_map_count) is not what stops them.
    mallopt(M_MMAP_MAX, kMaxMappedBlocks);
  }
  configure_paje(options.paje_file);
  apply_extra_config();
}

PlatformOptions platform_options(const scenario::Scenario& scenario) {
  PlatformOptions options;
  options.host_speed = scenario.simgrid.host_speed;
  options.cores_per_host = std::max(1, scenario.placement.procs_per_host);
  return options;
}

}  // namespace tsunagi::sim::simgrid
