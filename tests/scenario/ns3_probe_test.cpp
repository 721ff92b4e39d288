// RTT and throughput probes, processes per host, bad networks: the ns-3 backend's own
// behaviour, with figures derived from the links.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "ns3_support.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using ns3test::us;

namespace {
// A 64 B UDP payload is a 94 B frame on a point-to-point link (8 UDP + 20 IP + 2 PPP):
// 0.752 us at 125 MB/s per link. Rank 1 to rank 3: 4 links, 55 us of latency.
constexpr double kRtt13 = 2 * (55.0 + 4 * 0.752);

// A target that stays up (its adapter echoing pings) until `at`, then exits.
ns3test::Script stay_until(TimeNs at) {
  return [at](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) self.command(ArmTimerCmd{1, at});
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, ""});
  };
}
}  // namespace

TEST_CASE(
    "ns3 RTT echo: one UDP echo is the route's RTT, a gone target's is lost at its deadline") {
  const scenario::Scenario s = ns3test::three_level_scenario();
  ns3test::Run run;
  const Endpoint far = sim::ns3::endpoint_of(s, 3);
  const Endpoint gone = sim::ns3::endpoint_of(s, 2);  // no script: exits at once
  int answers = 0;
  run.scripts[1] = [&](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ProbeRttCmd{10, far, 64, kNsPerSec});
      self.command(ProbeRttCmd{11, gone, 64, 2 * kNsPerSec});
    }
    if (std::holds_alternative<RttMeasuredInput>(input.event) && ++answers == 2)
      self.command(ExitCmd{true, ""});
  };
  run.scripts[3] = stay_until(10'000'000);
  run.run(s);

  const auto measured = run.of<RttMeasuredInput>(1);
  REQUIRE(measured.size() == 2);
  CHECK(measured[0].second.probe == 10);
  CHECK(measured[0].second.ok);
  CHECK(static_cast<double>(measured[0].second.rtt) == Approx(us(kRtt13)).margin(2));
  CHECK(static_cast<double>(measured[0].first) == Approx(us(kRtt13)).margin(10));
  // The echo to the exited rank went unanswered: lost at its deadline (the driver's).
  CHECK(measured[1].second.probe == 11);
  CHECK(!measured[1].second.ok);
  CHECK(measured[1].second.timed_out);
  CHECK(measured[1].first == 2 * kNsPerSec);
  // The target's core never saw the pings: its adapter echoed them.
  for (const Input& input : run.inputs[3])
    CHECK(!std::holds_alternative<ReceivedInput>(input.event));
}

TEST_CASE(
    "ns3 RTT read off the route: exact while a bulk transfer fills the path, a gone "
    "target answers nothing") {
  scenario::Scenario s = ns3test::three_level_scenario();
  s.ns3.rtt_probe = "route";
  ns3test::Run run;
  const Endpoint far = sim::ns3::endpoint_of(s, 3);
  const Endpoint gone = sim::ns3::endpoint_of(s, 2);  // no script: exits at once
  int answers = 0;
  run.scripts[1] = [&](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ProbeThroughputCmd{1, far, 2'000'000});  // queues on every link of the route
      self.command(ArmTimerCmd{1, 5'000'000});
    }
    if (std::holds_alternative<TimerFiredInput>(input.event)) {
      self.command(ProbeRttCmd{10, far, 64, kNsPerSec});
      self.command(ProbeRttCmd{11, gone, 64, kNsPerSec});
    }
    if (std::holds_alternative<RttMeasuredInput>(input.event) && ++answers == 2)
      self.command(ExitCmd{true, ""});
  };
  run.scripts[3] = stay_until(50'000'000);
  run.run(s);

  const auto measured = run.of<RttMeasuredInput>(1);
  REQUIRE(measured.size() == 2);
  // 2 x (55 us + 64 B at 125 MB/s): the uncontended figure, though the transfer still runs.
  CHECK(measured[0].second.probe == 10);
  CHECK(measured[0].second.ok);
  CHECK(measured[0].second.rtt == 111'024);
  CHECK(measured[0].first == 5'000'000 + 111'024);
  CHECK(measured[1].second.probe == 11);
  CHECK(!measured[1].second.ok);
  CHECK(measured[1].first == kNsPerSec);  // its deadline, a time, not a duration
}

TEST_CASE("ns3 rtt_probe = \"route\" is refused with WAN clusters", "[ns3]") {
  CHECK_THROWS_WITH(scenario::load_scenario_string(R"(name = "w"
[[network.cluster]]
name = "a"
hosts = 2
[[network.cluster]]
name = "b"
hosts = 2
[network.wan]
rendezvous = "a"
[ns3]
rtt_probe = "route"
)",
                                                   "w.toml"),
                    Catch::Contains("w.toml:11") && Catch::Contains("use \"packets\""));
}

TEST_CASE("ns3 throughput probe: bulk TCP at the bottleneck, two over one uplink share it") {
  const scenario::Scenario s = ns3test::three_level_scenario();
  ns3test::Run run;
  const Endpoint to3 = sim::ns3::endpoint_of(s, 3);
  const Endpoint to4 = sim::ns3::endpoint_of(s, 4);
  constexpr std::uint64_t kBytes = 2'000'000;
  run.scripts[1] = [&](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ProbeThroughputCmd{1, to3, kBytes});
    if (const auto* done = std::get_if<ThroughputMeasuredInput>(&input.event)) {
      if (done->probe == 1) self.command(ArmTimerCmd{1, 100'000'000});
      if (done->probe == 2) self.command(ExitCmd{true, ""});
    }
    if (std::holds_alternative<TimerFiredInput>(input.event))
      self.command(ProbeThroughputCmd{2, to3, kBytes});
  };
  run.scripts[2] = [&](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ArmTimerCmd{1, 100'000'000});
    if (std::holds_alternative<TimerFiredInput>(input.event))
      self.command(ProbeThroughputCmd{3, to4, kBytes});
    if (std::holds_alternative<ThroughputMeasuredInput>(input.event))
      self.command(ExitCmd{true, ""});
  };
  for (Rank r : {3, 4})
    run.scripts[r] = [](ns3test::Scripted& self, const Input& input) {
      if (std::holds_alternative<StartedInput>(input.event))
        self.command(ArmTimerCmd{1, 500'000'000});
      if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, ""});
    };
  run.run(s);

  const auto one = run.of<ThroughputMeasuredInput>(1);
  const auto two = run.of<ThroughputMeasuredInput>(2);
  REQUIRE(one.size() == 2);
  REQUIRE(two.size() == 1);
  for (const auto& m : {one[0].second, one[1].second, two[0].second}) {
    CHECK(m.ok);
    CHECK(m.bytes == kBytes);
  }
  const double alone = static_cast<double>(one[0].second.elapsed);
  // 2 MB at 125 MB/s is 16 ms of payload; headers add ~3.6%, slow start a few round trips.
  CHECK(alone > 16e6 * 1.03);
  CHECK(alone < 16e6 * 1.15);
  // Rank 1 -> 3 and rank 2 -> 4 both cross edge0's and edge1's uplinks: each gets about half.
  for (double shared :
       {static_cast<double>(one[1].second.elapsed), static_cast<double>(two[0].second.elapsed)}) {
    CHECK(shared > 1.6 * alone);
    CHECK(shared < 2.4 * alone);
  }
  bool counted = false;
  for (const auto& [key, value] : run.observer.counts)
    if (key == "inference.throughput_probes") counted = value == 3;
  CHECK(counted);
}

TEST_CASE("ns3 processes per host: each has its own port, host-mates talk over loopback") {
  const scenario::Scenario s = ns3test::three_level_scenario(2);
  ns3test::Run run;
  const Endpoint mate = sim::ns3::endpoint_of(s, 1);
  run.scripts[0] = [mate](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ProbeRttCmd{1, mate, 64, kNsPerSec});
    if (std::holds_alternative<RttMeasuredInput>(input.event)) self.command(ConnectCmd{1, mate});
    if (std::holds_alternative<ConnectedInput>(input.event)) {
      self.command(SendCmd{1, Bytes{9}, 9});
      self.command(CloseCmd{1});
      self.command(ExitCmd{true, ""});
    }
  };
  run.scripts[1] = [](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<ClosedInput>(input.event)) self.command(ExitCmd{true, ""});
  };
  run.run(s);

  for (Rank r = 0; r < 2; ++r) {
    const auto started = run.of<StartedInput>(r);
    REQUIRE(started.size() == 1);
    CHECK(started[0].second.self == sim::ns3::endpoint_of(s, r));
    CHECK(started[0].second.host == "core-h00");
    CHECK(started[0].second.rendezvous == sim::ns3::endpoint_of(s, kNoRank));
  }
  CHECK(sim::ns3::endpoint_of(s, 0).substr(0, sim::ns3::endpoint_of(s, 0).find(':')) ==
        mate.substr(0, mate.find(':')));
  CHECK(sim::ns3::endpoint_of(s, 0) != mate);
  const auto rtt = run.of<RttMeasuredInput>(0);
  REQUIRE(rtt.size() == 1);
  CHECK(rtt[0].second.ok);
  CHECK(rtt[0].second.rtt < 1000);  // ns-3's loopback device: no link in between
  Bytes stream;
  for (const auto& [at, piece] : run.of<ReceivedInput>(1))
    stream.insert(stream.end(), piece.bytes.begin(), piece.bytes.end());
  CHECK(stream == Bytes{9, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(run.summary.all_exited_ok);
}

TEST_CASE("ns3 topology: a switch beyond the address plan is a clear error") {
  scenario::Scenario s = ns3test::three_level_scenario();
  s.network.switches[2].hosts = 2000;
  s.protocol.processes = scenario::process_count(s);
  ns3test::Run run;
  try {
    run.run(s);
    FAIL("no error");
  } catch (const std::invalid_argument& error) {
    CHECK(std::string(error.what()).find("edge0") != std::string::npos);
    CHECK(std::string(error.what()).find("address plan") != std::string::npos);
  }
}
