// Small messages that never enter SimGrid (docs/simgrid.md, "Small messages").
//
// Handshakes, probes and control frames are most of a large run's messages, and each one made
// a flow in SimGrid's max-min solver, whose every solve touches every flow sharing a link with
// a changed one: at 1,000 processes nearly all of the run's CPU (docs/benchmarks.md). Under
// CM02 a transfer's time is the route's latency times a constant factor, then its bytes at the
// flow's rate, so the adapter dates a small message itself, exactly as SimGrid dates a transfer
// alone on its route (latency, then bytes / bottleneck rate, bounded by TCP-gamma /
// (2 x latency) as CM02 bounds a flow). What that leaves out is contention, so a message stays
// SimGrid's when contention could matter:
//
// - when a link of its route carries a SimGrid flow (bulk data, a throughput probe): then it
//   shares the link as the solver says;
// - when it is an RTT probe's ping or pong: measuring contention is what a probe is for;
// - when its bytes take more than a tenth of its route's latency (a slow serial link, a large
//   "small" message): then messages queued on a link at once could add a delay of the order of
//   the latency itself. Below a tenth, k messages at once on one link add at most k tenths of a
//   latency, which the handshake storms of large runs (four connects per node) keep small.
//
// Below `latency_only_below` a message costs its route's latency only (the older, cheaper
// approximation switched-10k asks for): no check, no transmission time.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <simgrid/forward.h>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::sim::simgrid {

class SmallMessages {
 public:
  // What CM02 charges a transfer on one route: its links, the route's latency times the
  // latency factor, and the rate a flow alone on it reaches.
  struct Route {
    std::vector<::simgrid::s4u::Link*> links;
    double latency_s = 0;
    double rate_bytes_per_s = 0;
  };

  // Reads the thresholds from the scenario and the factors from SimGrid's configuration (set
  // before the platform is built, so --cfg overrides are included). Only CM02's factors are
  // constants; under any other model every message stays SimGrid's.
  explicit SmallMessages(const scenario::SimgridConfig& config);

  // Whether a message of `bytes` may be dated here (it still goes to SimGrid when arrival()
  // says no). An RTT probe's ping and pong are only ever latency-only: a probe is there to
  // measure what the network does to a small message, contention included (rtt_probe = "route"
  // is the cheap way to probe).
  bool applies(std::uint64_t bytes, bool rtt_probe) const {
    return active_ && (bytes < latency_only_below_ || (!rtt_probe && bytes < uncontended_below_));
  }
  Route route(const ::simgrid::s4u::Host* from, const ::simgrid::s4u::Host* to) const;
  // When a message of `bytes` sent at `now` on `route` arrives; nullopt when it must be a
  // SimGrid flow after all (a link of the route carries one, or its bytes are not negligible).
  std::optional<double> arrival(const Route& route, std::uint64_t bytes, double now) const;

 private:
  bool active_ = false;
  std::uint64_t latency_only_below_ = 0;
  std::uint64_t uncontended_below_ = 0;
  double latency_factor_ = 1;
  double bandwidth_factor_ = 1;
  double tcp_gamma_ = 0;  // bytes; a flow's rate is at most gamma / (2 x route latency)
  static constexpr double kNegligibleShareOfLatency = 0.1;
};

}  // namespace tsunagi::sim::simgrid
