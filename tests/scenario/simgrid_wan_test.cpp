// Connects across cluster routers on SimGrid (issue 6): refused by a rejecting firewall after
// one round trip, silently dropped until the SYN schedule gives up, and rate-limited routers
// whose later SYNs get through on retransmission.
//
// Four clusters of 2 hosts (ranks 0-1 in a, 2-3 in b, 4-5 in c, 6-7 in d), 1 ms WAN links, so a
// cross-cluster 64 B round trip is 2 x (1 + 1 ms + 2 x 5 us + a few us of transmission).
// SYN schedule: 1 s, doubling, 3 retries: retransmissions at 1, 3, 7 s, give-up at 15 s.
#include <algorithm>

#include <catch2/catch.hpp>

#include "scripted_process.hpp"
#include "test_support.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;

namespace {

scenario::Scenario four_clusters() {
  return scenario::load_scenario_string(R"(name = "wan-test"
[network.wan]
rendezvous = "b"
syn_rto = "1s"
syn_retries = 3
[[network.cluster]]
name = "a"
hosts = 2
policy = "firewall"
firewall_action = "reject"
[[network.cluster]]
name = "b"
hosts = 2
[[network.cluster]]
name = "c"
hosts = 2
policy = "inbound_firewall"
[[network.cluster]]
name = "d"
hosts = 2
connect_rate = { per_second = 1, burst = 1 }
[protocol]
connect_timeout = "100s"
)",
                                        "wan-test.toml");
}

constexpr double kCrossRttUs = 2 * (2000.0 + 10.0);  // latency only; transmission is ~2 us

// Rank `from` connects to every rank in `targets` when it starts, then exits after `expect`
// outcomes (connected or failed).
test::Script connect_to(const scenario::Scenario& s, std::vector<Rank> targets, int expect) {
  std::vector<Endpoint> endpoints;
  for (Rank r : targets) endpoints.push_back(test::endpoint_of(s, r));
  auto outcomes = std::make_shared<int>(0);
  return [endpoints, expect, outcomes](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      for (std::size_t i = 0; i < endpoints.size(); ++i)
        self.command(ConnectCmd{static_cast<ConnId>(i + 1), endpoints[i]});
    }
    if (std::holds_alternative<ConnectedInput>(input.event) ||
        std::holds_alternative<ConnectFailedInput>(input.event)) {
      if (++*outcomes == expect) self.command(ExitCmd{true, "done"});
    }
  };
}

// Targets stay until the run's last connect is settled.
test::Script stay_until(TimeNs when) {
  return [when](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) self.command(ArmTimerCmd{1, when});
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, "done"});
  };
}

}  // namespace

TEST_CASE("wan: a rejecting firewall refuses after one round trip") {
  const scenario::Scenario s = four_clusters();
  test::RecordingObserver observer;
  test::ScriptedRun run;
  run.scripts[2] = connect_to(s, {0}, 1);
  run.scripts[0] = stay_until(kNsPerSec);
  run.run(s, observer);
  const auto failed = run.of<ConnectFailedInput>(2);
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].second.reason == ConnectFailure::Refused);
  CHECK(failed[0].first == Approx(test::us(kCrossRttUs)).epsilon(0.002));
  CHECK(run.of<AcceptedInput>(0).empty());
  CHECK(run.summary.all_exited_ok);
}

TEST_CASE("wan: a dropping firewall times out after the SYN schedule") {
  const scenario::Scenario s = four_clusters();
  test::RecordingObserver observer;
  test::ScriptedRun run;
  run.scripts[2] = connect_to(s, {4}, 1);  // b -> c: c's inbound firewall drops
  run.scripts[4] = stay_until(20 * kNsPerSec);
  run.scripts[5] = connect_to(s, {2}, 1);  // c -> b: outbound is free
  run.run(s, observer);
  const auto failed = run.of<ConnectFailedInput>(2);
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].second.reason == ConnectFailure::TimedOut);
  CHECK(failed[0].first == 15 * kNsPerSec);  // 1 + 2 + 4 + 8 s
  CHECK(run.of<AcceptedInput>(4).empty());
  const auto connected = run.of<ConnectedInput>(5);
  REQUIRE(connected.size() == 1);
  CHECK(connected[0].first == Approx(test::us(kCrossRttUs)).epsilon(0.002));
}

TEST_CASE("wan: a rate-limited router lets later SYNs through on retransmission") {
  const scenario::Scenario s = four_clusters();
  test::RecordingObserver observer;
  test::ScriptedRun run;
  // Four SYNs at t = 0 into d, whose router passes 1 at once and 1 per second after.
  run.scripts[2] = connect_to(s, {6, 7}, 2);
  run.scripts[3] = connect_to(s, {6, 7}, 2);
  run.scripts[6] = stay_until(20 * kNsPerSec);
  run.scripts[7] = stay_until(20 * kNsPerSec);
  run.run(s, observer);
  std::vector<TimeNs> times;
  for (Rank r : {2, 3}) {
    CHECK(run.of<ConnectFailedInput>(r).empty());
    for (const auto& [at, event] : run.of<ConnectedInput>(r)) times.push_back(at);
  }
  REQUIRE(times.size() == 4);
  std::sort(times.begin(), times.end());
  // The first SYN passes; the three dropped retry at 1 s (one passes), the two left at 3 s
  // (one passes: the bucket holds one), the last at 7 s.
  const std::vector<double> sent_at_s = {0, 1, 3, 7};
  for (std::size_t i = 0; i < times.size(); ++i) {
    INFO("connect " << i);
    CHECK(static_cast<double>(times[i]) ==
          Approx(sent_at_s[i] * 1e9 + test::us(kCrossRttUs)).margin(test::us(20)));
  }
}

TEST_CASE("wan: a scenario fault kill closes the process's connections for its peers") {
  scenario::Scenario s = four_clusters();
  s.faults.push_back({"r3", 2 * kNsPerSec});
  test::RecordingObserver observer;
  test::ScriptedRun run;
  run.scripts[2] = [to = test::endpoint_of(s, 3)](test::ScriptedProcess& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) self.command(ConnectCmd{1, to});
    if (std::holds_alternative<ClosedInput>(input.event)) self.command(ExitCmd{true, "peer gone"});
  };
  run.scripts[3] = stay_until(60 * kNsPerSec);  // would stay a minute; killed at 2 s
  run.run(s, observer);
  REQUIRE(run.of<ConnectedInput>(2).size() == 1);
  const auto closed = run.of<ClosedInput>(2);
  REQUIRE(closed.size() == 1);
  // Same switch: the FIN takes 2 x 5 us and a few hundred ns of transmission.
  CHECK(closed[0].first == Approx(2 * kNsPerSec + test::us(10.5)).margin(test::us(1)));
  CHECK(run.of<TimerFiredInput>(3).empty());
  bool killed = false;
  for (const auto& exit : observer.exits)
    if (exit.proc == "r3")
      killed = exit.reason.find("[[faults]]") != std::string::npos && exit.now == 2 * kNsPerSec;
  CHECK(killed);
  CHECK(run.summary.all_exited_ok);
}
