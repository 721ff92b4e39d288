// RTT probes, computations, timers and process failures through the SimGrid backend.
#include <catch2/catch.hpp>

#include "scripted_process.hpp"
#include "test_support.hpp"

using namespace tsunagi;
using test::us;

namespace {

// Exits once `expected` inputs of type T have arrived.
template <class T>
void exit_after(test::ScriptedProcess& self, const Input& input, int& seen, int expected) {
  if (std::holds_alternative<T>(input.event) && ++seen == expected)
    self.command(ExitCmd{true, "done"});
}

}  // namespace

TEST_CASE("probe: RTT of 64 B probes is twice the one-way time of the route") {
  const scenario::Scenario s = test::three_level_scenario();
  test::RecordingObserver observer;
  test::ScriptedRun run;
  const Endpoint far = test::endpoint_of(s, 3);   // two switches away: 55 us
  const Endpoint near = test::endpoint_of(s, 2);  // same switch: 4 us
  int results = 0;
  run.scripts[1] = [&](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ProbeRttCmd{1, far, 64, kNsPerSec});
      self.command(ProbeRttCmd{2, near, 64, kNsPerSec});
      self.command(ProbeRttCmd{3, self.self(), 64, kNsPerSec});  // same host: the loopback
      self.command(ProbeRttCmd{4, "nowhere:0", 64, kNsPerSec});
    }
    exit_after<RttMeasuredInput>(self, input, results, 4);
  };
  run.scripts[2] = run.scripts[3] = [](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ArmTimerCmd{1, 1 * kNsPerMs});  // stay up while probed
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, ""});
  };
  run.run(s, observer);

  std::map<std::uint64_t, std::pair<TimeNs, RttMeasuredInput>> by_probe;
  for (const auto& [now, m] : run.of<RttMeasuredInput>(1)) by_probe[m.probe] = {now, m};
  REQUIRE(by_probe.size() == 4);
  CHECK(by_probe[1].second.ok);
  CHECK(by_probe[1].second.rtt == Approx(us(2 * (55 + 0.512))).epsilon(0.01));
  CHECK(by_probe[1].first == Approx(by_probe[1].second.rtt).epsilon(0.01));  // one echo
  CHECK(by_probe[2].second.ok);
  CHECK(by_probe[2].second.rtt == Approx(us(2 * (4 + 0.512))).epsilon(0.01));
  CHECK(by_probe[3].second.ok);
  CHECK(by_probe[3].second.rtt == Approx(us(2 * (0.5 + 0.0064))).epsilon(0.01));
  CHECK_FALSE(by_probe[4].second.ok);
  CHECK_FALSE(by_probe[4].second.timed_out);  // no process there: known at once
  CHECK(by_probe[4].first == 0);
  std::map<std::string, double> counts(observer.counts.begin(), observer.counts.end());
  CHECK(counts["inference.rtt_probes"] == 4);
  CHECK(counts["inference.throughput_probes"] == 0);
  CHECK(run.summary.all_exited_ok);
}

TEST_CASE("throughput probe: two transfers sharing an uplink get half each, alone the whole link") {
  const scenario::Scenario s = test::three_level_scenario();  // every link 125 MB/s
  test::RecordingObserver observer;
  test::ScriptedRun run;
  constexpr std::uint64_t kBytes = 10'000'000;
  const auto stay_up = [](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) self.command(ArmTimerCmd{9, kNsPerSec});
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, ""});
  };
  // Ranks 1 and 2 (edge0) send to ranks 5 and 6 (edge2) together: both cross edge0's uplink.
  // Then rank 1 sends alone (probe 3), and ranks 3 -> 4 inside edge1 ran beside it all along.
  run.scripts[1] = [&](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ProbeThroughputCmd{1, test::endpoint_of(s, 5), kBytes});
    if (const auto* m = std::get_if<ThroughputMeasuredInput>(&input.event)) {
      if (m->probe == 1) self.command(ArmTimerCmd{1, input.now + kNsPerMs});
      if (m->probe == 3) self.command(ExitCmd{true, ""});
    }
    if (std::holds_alternative<TimerFiredInput>(input.event))
      self.command(ProbeThroughputCmd{3, test::endpoint_of(s, 5), kBytes});
  };
  run.scripts[2] = [&](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ProbeThroughputCmd{2, test::endpoint_of(s, 6), kBytes});
    if (std::holds_alternative<ThroughputMeasuredInput>(input.event))
      self.command(ExitCmd{true, ""});
  };
  run.scripts[3] = [&](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ProbeThroughputCmd{4, test::endpoint_of(s, 4), kBytes});
      self.command(ProbeThroughputCmd{5, "nowhere:0", kBytes});
    }
    if (const auto* m = std::get_if<ThroughputMeasuredInput>(&input.event); m && m->probe == 4)
      self.command(ExitCmd{true, ""});
  };
  run.scripts[4] = run.scripts[5] = run.scripts[6] = stay_up;
  run.run(s, observer);

  std::map<std::uint64_t, ThroughputMeasuredInput> by_probe;
  for (int rank : {1, 2, 3})
    for (const auto& [now, m] : run.of<ThroughputMeasuredInput>(rank)) by_probe[m.probe] = m;
  REQUIRE(by_probe.size() == 5);
  const auto seconds = [&](std::uint64_t probe) {
    return static_cast<double>(by_probe[probe].elapsed) / 1e9;
  };
  const double link_s = kBytes / 125e6;  // 80 ms on a free link
  CHECK(by_probe[1].ok);
  CHECK(by_probe[1].bytes == kBytes);
  CHECK(seconds(1) == Approx(2 * link_s).epsilon(0.02));
  CHECK(seconds(2) == Approx(2 * link_s).epsilon(0.02));
  CHECK(seconds(3) == Approx(link_s).epsilon(0.02));
  CHECK(seconds(4) == Approx(link_s).epsilon(0.02));  // inside edge1: shares nothing
  CHECK_FALSE(by_probe[5].ok);
  std::map<std::string, double> counts(observer.counts.begin(), observer.counts.end());
  CHECK(counts["inference.throughput_probes"] == 5);
}

TEST_CASE("probe: a target that has exited answers no ping: lost at the echo's deadline") {
  const scenario::Scenario s = test::three_level_scenario();
  test::RecordingObserver observer;
  test::ScriptedRun run;
  const Endpoint near = test::endpoint_of(s, 2);  // rank 2 exits at time 0
  run.scripts[1] = [near](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ProbeRttCmd{1, near, 64, 5 * kNsPerMs});
    if (std::holds_alternative<RttMeasuredInput>(input.event)) self.command(ExitCmd{true, ""});
  };
  run.run(s, observer);
  const auto results = run.of<RttMeasuredInput>(1);
  REQUIRE(results.size() == 1);
  CHECK_FALSE(results[0].second.ok);
  CHECK(results[0].second.timed_out);
  CHECK(results[0].first == 5 * kNsPerMs);
}

TEST_CASE("compute: takes its duration while the process answers pings and timers fire on time") {
  const scenario::Scenario s = test::three_level_scenario();
  test::RecordingObserver observer;
  test::ScriptedRun run;
  const Endpoint busy = test::endpoint_of(s, 3);
  run.scripts[3] = [](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ComputeCmd{5, 1 * kNsPerMs});
      self.command(ComputeCmd{6, 0});
    }
    if (const auto* done = std::get_if<ComputeDoneInput>(&input.event))
      if (done->task == 5) self.command(ExitCmd{true, "computed"});
  };
  run.scripts[1] = [busy](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ProbeRttCmd{1, busy, 64, kNsPerSec});
      self.command(ArmTimerCmd{7, 2 * kNsPerMs});
      self.command(ArmTimerCmd{8, 1 * kNsPerMs + 1});
    }
    if (const auto* fired = std::get_if<TimerFiredInput>(&input.event))
      if (fired->timer == 7) self.command(ExitCmd{true, "timer"});
  };
  run.run(s, observer);

  const auto done = run.of<ComputeDoneInput>(3);
  REQUIRE(done.size() == 2);
  CHECK(done[0].second.task == 6);
  CHECK(done[0].first == 0);
  CHECK(done[1].second.task == 5);
  CHECK(done[1].first == 1 * kNsPerMs);
  const auto rtt = run.of<RttMeasuredInput>(1);
  REQUIRE(rtt.size() == 1);
  CHECK(rtt[0].second.rtt == Approx(us(2 * (55 + 0.512))).epsilon(0.01));
  const auto fired = run.of<TimerFiredInput>(1);
  REQUIRE(fired.size() == 2);
  CHECK(fired[0].second.timer == 8);
  CHECK(fired[0].first == 1 * kNsPerMs + 1);
  CHECK(fired[1].second.timer == 7);
  CHECK(fired[1].first == 2 * kNsPerMs);
  CHECK(run.summary.end == 2 * kNsPerMs);
}

TEST_CASE("compute: two computations on a one-core host share the core") {
  const scenario::Scenario s = test::three_level_scenario();
  test::RecordingObserver observer;
  test::ScriptedRun run;
  int finished = 0;
  run.scripts[5] = [&finished](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ComputeCmd{1, 1 * kNsPerMs});
      self.command(ComputeCmd{2, 1 * kNsPerMs});
    }
    exit_after<ComputeDoneInput>(self, input, finished, 2);
  };
  run.run(s, observer);
  const auto done = run.of<ComputeDoneInput>(5);
  REQUIRE(done.size() == 2);
  CHECK(done[0].first == 2 * kNsPerMs);
  CHECK(done[1].first == 2 * kNsPerMs);
}

TEST_CASE("failure: a process that throws is reported and the others finish") {
  const scenario::Scenario s = test::three_level_scenario();
  test::RecordingObserver observer;
  test::ScriptedRun run;
  run.scripts[2] = [](test::ScriptedProcess&, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) throw std::runtime_error("boom");
  };
  run.run(s, observer);
  CHECK_FALSE(run.summary.all_exited_ok);
  CHECK(run.summary.failure == "r2 failed: exception: boom");
  int clean = 0;
  for (const auto& exit : observer.exits) clean += exit.ok ? 1 : 0;
  CHECK(clean == 7);  // six ranks and the rendezvous
}

TEST_CASE("failure: a process still waiting when events run out is reported") {
  const scenario::Scenario s = test::three_level_scenario();
  test::RecordingObserver observer;
  test::ScriptedRun run;
  run.scripts[4] = [](test::ScriptedProcess&, const Input&) {};  // never exits
  run.run(s, observer);
  CHECK_FALSE(run.summary.all_exited_ok);
  CHECK(run.summary.failure.find("r4 failed: still waiting") == 0);
}

TEST_CASE("endpoints: ranks of one host get consecutive slots and probe over the loopback") {
  scenario::Scenario s = test::three_level_scenario();
  s.placement.procs_per_host = 2;
  s.placement.processes = 5;  // core-h00:0-1, edge0-h00:0-1, edge0-h01:0
  s.protocol.processes = scenario::process_count(s);
  test::RecordingObserver observer;
  test::ScriptedRun run;
  run.scripts[2] = [](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ProbeRttCmd{1, "edge0-h00:1", 64, kNsPerSec});
    if (std::holds_alternative<RttMeasuredInput>(input.event)) self.command(ExitCmd{true, ""});
  };
  run.scripts[3] = [](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ArmTimerCmd{1, 1 * kNsPerMs});
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, ""});
  };
  run.run(s, observer);

  std::vector<std::string> selves;
  for (Rank r = 0; r < 5; ++r) {
    const auto started = run.of<StartedInput>(r);
    REQUIRE(started.size() == 1);
    selves.push_back(started[0].second.self);
    CHECK(started[0].second.rank == r);
    CHECK(started[0].second.rendezvous == "rendezvous:0");
    REQUIRE(started[0].second.config != nullptr);
    CHECK(started[0].second.config->processes == 5);
  }
  CHECK(selves == std::vector<std::string>{"core-h00:0", "core-h00:1", "edge0-h00:0", "edge0-h00:1",
                                           "edge0-h01:0"});
  CHECK(run.of<StartedInput>(2)[0].second.host == "edge0-h00");
  const auto rendezvous = run.of<StartedInput>(kNoRank);
  REQUIRE(rendezvous.size() == 1);
  CHECK(rendezvous[0].second.self == "rendezvous:0");
  const auto rtt = run.of<RttMeasuredInput>(2);
  REQUIRE(rtt.size() == 1);
  CHECK(rtt[0].second.rtt == Approx(us(2 * (0.5 + 0.0064))).epsilon(0.01));
}

TEST_CASE("probe: route mode reads the RTT off the route and takes one round trip") {
  scenario::Scenario s = test::three_level_scenario();
  s.simgrid.rtt_probe = "route";
  test::RecordingObserver observer;
  test::ScriptedRun run;
  const Endpoint far = test::endpoint_of(s, 3);
  int results = 0;
  run.scripts[1] = [&](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ProbeRttCmd{1, far, 64, kNsPerSec});
      self.command(ProbeRttCmd{2, self.self(), 64, kNsPerSec});
    }
    exit_after<RttMeasuredInput>(self, input, results, 2);
  };
  run.run(s, observer);
  std::map<std::uint64_t, std::pair<TimeNs, RttMeasuredInput>> by_probe;
  for (const auto& [now, m] : run.of<RttMeasuredInput>(1)) by_probe[m.probe] = {now, m};
  REQUIRE(by_probe.size() == 2);
  CHECK(by_probe[1].second.ok);
  CHECK(by_probe[1].second.rtt == Approx(us(2 * (55 + 0.512))).epsilon(0.001));
  CHECK(by_probe[1].first == by_probe[1].second.rtt);
  CHECK(by_probe[2].second.rtt == Approx(us(2 * (0.5 + 0.0064))).epsilon(0.01));
  CHECK(observer.counts[0].second == 2);
}
