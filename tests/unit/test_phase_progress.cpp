// The progress line's phase (tsunagi/runner/driver/phase_progress.hpp): read off the
// trace kinds the core emits, never moving back, with an estimate only where a count tells how
// much of the phase is done.
#include <catch2/catch.hpp>

#include "tsunagi/runner/driver/phase_progress.hpp"

using tsunagi::runner::PhaseProgress;
using Phase = PhaseProgress::Phase;

namespace {
PhaseProgress with_ranks(int ranks) {
  PhaseProgress p;
  p.set_ranks(ranks);
  return p;
}
}  // namespace

TEST_CASE("phase progress: each trace kind moves the phase forward, never back", "[progress]") {
  const std::vector<std::pair<std::vector<std::string>, Phase>> table = {
      {{}, Phase::Registering},
      {{"register_retry", "register_retry"}, Phase::Registering},
      {{"directory"}, Phase::Inference},
      {{"directory", "rtt_view"}, Phase::Inference},
      {{"directory", "groups"}, Phase::Connecting},
      {{"directory", "hierarchy"}, Phase::Connecting},
      {{"plan"}, Phase::Connecting},
      {{"directory", "groups", "routes", "routes", "routes", "routes"}, Phase::Workload},
      {{"all_settled"}, Phase::Workload},
      {{"shutdown"}, Phase::ShuttingDown},
      // Late traces of earlier phases: the line stays where it is.
      {{"shutdown", "directory", "groups", "plan"}, Phase::ShuttingDown},
      {{"all_settled", "plan", "directory"}, Phase::Workload},
      // Kinds that say nothing about the phase.
      {{"connect_failed", "frame_rejected", "window", "shortcut_up"}, Phase::Registering},
  };
  for (const auto& [kinds, expected] : table) {
    PhaseProgress p = with_ranks(4);
    double wall = 0;
    for (const auto& kind : kinds) p.on_trace(kind, wall += 1);
    INFO(kinds.size() << " traces");
    CHECK(p.phase() == expected);
  }
}

TEST_CASE("phase progress: counts, and an estimate only once a tenth of a counted phase is done",
          "[progress]") {
  PhaseProgress p = with_ranks(100);
  p.on_trace("register_retry", 1);
  CHECK(p.describe(0, 1) == "registering: 1 connects to the rendezvous retried");
  p.on_trace("directory", 10);
  CHECK(p.describe(1234, 11) == "inference: 1234 RTT probes");
  p.on_trace("rtt_view", 12);
  CHECK(p.describe(1300, 13) == "inference: 1300 RTT probes, 1 of 100 ranks done probing");
  p.on_trace("groups", 20);
  for (int i = 0; i < 9; ++i) p.on_trace("routes", 21);
  CHECK(p.describe(0, 22) == "connecting: plans 0 of 100, routes 9 of 100");  // under a tenth
  p.on_trace("routes", 21);
  // 10 of 100 in 4 s since the phase began at 20: 90 more take 36 s.
  CHECK(p.describe(0, 24) == "connecting: plans 0 of 100, routes 10 of 100, ETA 36 s");
  for (int i = 0; i < 90; ++i) p.on_trace("routes", 30);
  CHECK(p.phase() == Phase::Workload);
  CHECK(p.describe(0, 31) == "workload: running on 100 ranks");
  p.on_trace("shutdown", 40);
  for (int i = 0; i < 50; ++i) p.on_rank_exit();
  CHECK(p.describe(0, 42) == "shutting down: 50 of 100 ranks exited, ETA 2 s");
}

TEST_CASE("phase progress: no ranks, no estimate and no division by zero", "[progress]") {
  PhaseProgress p;
  p.on_trace("routes", 1);
  CHECK(p.describe(0, 1) == "connecting: plans 0 of 0, routes 1 of 0");
  p.on_trace("shutdown", 2);
  CHECK(p.describe(0, 2) == "shutting down: 0 of 0 ranks exited");
}
