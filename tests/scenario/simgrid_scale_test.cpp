// Scale checks, hidden from ctest (tag [.]): run them by name, e.g.
//   TSUNAGI_SCALE_EDGES=20 TSUNAGI_SCALE_HOSTS=50 tsunagi_simgrid_tests "[scale]"
// Every rank probes every other rank (one echo each, one probe at a time), the all-pairs RTT
// phase of topology inference, then all ranks exit together. Rank r probes r+1, r+2, ...
// (mod N); TSUNAGI_SCALE_SAME_ORDER=1 makes every rank probe 0, 1, 2, ... instead, so all of
// them hit the same target at once (the worst case for the target's adapter).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>

#include <catch2/catch.hpp>

#include "scripted_process.hpp"
#include "test_support.hpp"

using namespace tsunagi;

namespace {

int env_or(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::atoi(value) : fallback;
}

class CountingObserver : public test::RecordingObserver {
 public:
  void on_progress(const std::string& message) override { WARN(message); }
};

}  // namespace

TEST_CASE("scale: all-pairs RTT probes", "[.][scale]") {
  const int edges = env_or("TSUNAGI_SCALE_EDGES", 20);
  const int hosts = env_or("TSUNAGI_SCALE_HOSTS", 50);
  const bool same_order = env_or("TSUNAGI_SCALE_SAME_ORDER", 0) != 0;
  const int parallel = std::max(1, env_or("TSUNAGI_SCALE_PARALLEL", 1));  // probes in flight
  // Probes per rank; default all others. Fewer keep big runs short (for profiling).
  scenario::Scenario s = test::wide_scenario(edges, hosts);
  // Uplink bandwidth in MB/s (default 125, like the host links): faster uplinks keep probe
  // storms from saturating them.
  for (auto& sw : s.network.switches)
    sw.uplink_bandwidth = 1e6 * env_or("TSUNAGI_SCALE_UPLINK_MBPS", 125);
  const int ranks = scenario::process_count(s);
  const int peers = std::min(ranks - 1, env_or("TSUNAGI_SCALE_PEERS", ranks - 1));
  std::vector<Endpoint> endpoints;
  for (Rank r = 0; r < ranks; ++r) endpoints.push_back(test::endpoint_of(s, r));

  std::vector<int> probed(static_cast<std::size_t>(ranks), 0);
  std::uint64_t measured = 0;
  std::uint64_t off_by_1pct = 0;
  double worst = 0;
  // wide_scenario: 5 us links at 125 MB/s; a 64 B message takes 0.512 us beyond latency.
  auto expected_rtt = [hosts](Rank a, Rank b) {
    const bool same_switch = a / hosts == b / hosts;
    return 2 * ((same_switch ? 10.0 : 20.0) + 0.512) * 1e3;
  };
  test::ScriptedRun run;
  auto probe_next = [&](test::ScriptedProcess& self) {
    int& count = probed[static_cast<std::size_t>(self.rank())];
    if (count == peers) return;
    ++count;
    const int peer =
        same_order ? (count <= self.rank() ? count - 1 : count) : (self.rank() + count) % ranks;
    // One echo per peer (the core's sampler sends K of them one after another).
    self.command(ProbeRttCmd{static_cast<std::uint64_t>(peer),
                             endpoints[static_cast<std::size_t>(peer)], 64});
  };
  for (Rank r = 0; r < ranks; ++r) {
    run.scripts[r] = [&](test::ScriptedProcess& self, const Input& input) {
      if (std::holds_alternative<StartedInput>(input.event)) {
        self.command(ArmTimerCmd{0, 1000 * kNsPerSec});  // everyone is done long before
        for (int i = 0; i < parallel; ++i) probe_next(self);
      } else if (const auto* rtt = std::get_if<RttMeasuredInput>(&input.event)) {
        if (rtt->ok) ++measured;
        const double want = expected_rtt(self.rank(), static_cast<Rank>(rtt->probe));
        const double error = (static_cast<double>(rtt->rtt) - want) / want;
        worst = std::max(worst, error);
        if (error > 0.01) ++off_by_1pct;
        probe_next(self);
      } else if (std::holds_alternative<TimerFiredInput>(input.event)) {
        self.command(ExitCmd{true, "done"});
      }
    };
  }
  run.record = false;
  CountingObserver observer;
  const auto started = std::chrono::steady_clock::now();
  run.run(s, observer);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  WARN(ranks << " ranks, " << measured << " RTTs measured (one echo each), wall " << wall << " s; "
             << off_by_1pct << " more than 1% above the route's RTT, worst +" << 100 * worst
             << "%");
  CHECK(measured == static_cast<std::uint64_t>(ranks) * static_cast<std::uint64_t>(peers));
  CHECK(run.summary.all_exited_ok);
}
