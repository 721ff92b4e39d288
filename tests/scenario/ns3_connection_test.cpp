// Connections through the ns-3 backend: real TCP between scripted processes.
//
// three_level_scenario: rank 1 (edge0-h00) to rank 3 (edge1-h00) crosses 2 + 20 + 30 + 3 = 55 us
// of links at 125 MB/s; rank 1 to rank 2 stays on edge0 (2 + 2 us).
#include <catch2/catch.hpp>

#include "ns3_support.hpp"

using namespace tsunagi;
using ns3test::us;

TEST_CASE("ns3 stream: frames travel as bytes, filler as zeros, in order, then the close") {
  const scenario::Scenario s = ns3test::three_level_scenario();
  ns3test::Run run;
  const Endpoint to = sim::ns3::endpoint_of(s, 3);
  run.scripts[1] = [to](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) self.command(ConnectCmd{7, to});
    if (std::holds_alternative<ConnectedInput>(input.event)) {
      self.command(SendCmd{7, Bytes{1, 2, 3}, 97});
      self.command(SendCmd{7, Bytes{4}, 999'999});
      self.command(SendCmd{7, Bytes{5, 6}, 0});
      self.command(CloseCmd{7});
      self.command(ExitCmd{true, "sent"});
    }
  };
  run.scripts[3] = [](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<ClosedInput>(input.event)) self.command(ExitCmd{true, "closed"});
  };
  run.run(s);

  const auto accepted = run.of<AcceptedInput>(3);
  REQUIRE(accepted.size() == 1);
  CHECK((accepted[0].second.conn & kAcceptedConnBit) != 0);
  const auto connected = run.of<ConnectedInput>(1);
  REQUIRE(connected.size() == 1);
  // One round trip of SYN / SYN-ACK over 55 us of links each way (plus serialisation).
  CHECK(static_cast<double>(connected[0].first) > us(110));
  CHECK(static_cast<double>(connected[0].first) < us(115));

  Bytes expected{1, 2, 3};
  expected.resize(expected.size() + 97, 0);
  expected.push_back(4);
  expected.resize(expected.size() + 999'999, 0);
  expected.push_back(5);
  expected.push_back(6);
  Bytes stream;
  const auto received = run.of<ReceivedInput>(3);
  for (const auto& [at, piece] : received) {
    CHECK(piece.conn == accepted[0].second.conn);
    CHECK(piece.filler == 0);  // a stream backend moves real bytes
    stream.insert(stream.end(), piece.bytes.begin(), piece.bytes.end());
  }
  CHECK(received.size() > 10);  // TCP split the 1 MB
  CHECK(stream == expected);
  // 1,000,105 bytes need at least 8 ms at 125 MB/s, and TCP/IP headers cost ~3.5% more.
  CHECK(static_cast<double>(received.back().first) > us(8000 * 1.03));
  CHECK(static_cast<double>(received.back().first) < us(8000 * 1.25));
  const auto closed = run.of<ClosedInput>(3);
  REQUIRE(closed.size() == 1);
  CHECK(closed[0].first >= received.back().first);
  CHECK(run.summary.all_exited_ok);
}

TEST_CASE(
    "ns3 connect: unknown endpoint unreachable, exited target refused, a connect given up is "
    "silent") {
  const scenario::Scenario s = ns3test::three_level_scenario();
  // The process gives up on rank 3 after 30 us (its own deadline; the backend has none): rank 2
  // answers within that, rank 3 cannot.
  ns3test::Run run;
  const Endpoint exited = sim::ns3::endpoint_of(s, 2);  // rank 2 has no script: exits at once
  const Endpoint far = sim::ns3::endpoint_of(s, 3);
  run.scripts[1] = [exited, far](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ConnectCmd{1, "10.255.255.250:1"});
      self.command(ArmTimerCmd{1, input.now + 1'000'000});
    }
    if (const auto* fired = std::get_if<TimerFiredInput>(&input.event)) {
      if (fired->timer == 1) {
        self.command(ConnectCmd{2, exited});
        self.command(ConnectCmd{3, far});
        self.command(ArmTimerCmd{2, input.now + 30'000});
      } else if (fired->timer == 2) {
        self.command(CloseCmd{3});
        self.command(ArmTimerCmd{3, input.now + 1'000'000});  // a late answer would show up
      } else {
        self.command(ExitCmd{true, "done"});
      }
    }
  };
  run.scripts[3] = [](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) self.command(ArmTimerCmd{1, 5'000'000});
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, ""});
  };
  run.run(s);

  const auto failed = run.of<ConnectFailedInput>(1);
  REQUIRE(failed.size() == 2);
  CHECK(failed[0].second.conn == 1);
  CHECK(failed[0].second.reason == ConnectFailure::Unreachable);
  CHECK(failed[0].first == 0);
  CHECK(failed[1].second.conn == 2);
  CHECK(failed[1].second.reason == ConnectFailure::Refused);  // the exited rank's reset
  CHECK(static_cast<double>(failed[1].first) > 1'000'000 + us(8));
  CHECK(static_cast<double>(failed[1].first) < 1'000'000 + us(12));
  CHECK(run.of<ConnectedInput>(1).empty());
  // The late SYN-ACK met a closed port: the acceptor's core never heard of the connection.
  CHECK(run.of<AcceptedInput>(3).empty());
  CHECK(run.summary.all_exited_ok);
}
