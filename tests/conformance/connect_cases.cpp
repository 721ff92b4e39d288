// Conformance cases 1-3: a connect accepted, refused, unknown, and one that gets no answer and
// is given up by the process itself.
#include <algorithm>
#include <set>

#include <catch2/catch.hpp>

#include "case_support.hpp"

using namespace tsunagi;
using namespace tsunagi::conformance;

namespace {

// Connects once to `to` (as connection `conn`) `delay` after it starts, then leaves on the
// outcome, whatever it is.
Script connect_once(ConnId conn, std::function<Endpoint(const Scripted&)> to, TimeNs delay) {
  return [conn, to, delay](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ArmTimerCmd{1, input.now + delay});
    if (std::holds_alternative<TimerFiredInput>(input.event))
      self.command(ConnectCmd{conn, to(self)});
    if (std::holds_alternative<ConnectedInput>(input.event) ||
        std::holds_alternative<ConnectFailedInput>(input.event))
      self.command(ExitCmd{true, "connect settled"});
  };
}

// The only input rank `rank` got about `conn` must be ConnectFailed{reason}, after the connect.
void require_connect_failed(const Outcome& outcome, Rank rank, ConnId conn, ConnectFailure reason) {
  INFO(describe_all(outcome, rank));
  INFO(describe_exits(outcome));
  const std::vector<Input> about = outcome.about(rank, conn);
  REQUIRE(about.size() == 1);
  const auto* failed = std::get_if<ConnectFailedInput>(&about[0].event);
  REQUIRE(failed != nullptr);
  CHECK(failed->reason == reason);
  const auto fired = outcome.of<TimerFiredInput>(rank);
  REQUIRE(fired.size() == 1);
  CHECK(about[0].now >= fired[0].first);
  CHECK(outcome.all_exited_ok);
}

}  // namespace

TEST_CASE("connect_accepted", "[conformance]") {
  // r0 opens connections 5 and 9 to r1, r2 opens connection 7 to r1.
  auto world = make_world();
  Scripts scripts;
  scripts[0] = [connected = 0](Scripted& self, const Input& input) mutable {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ConnectCmd{5, self.world().endpoint_of(1)});
      self.command(ConnectCmd{9, self.world().endpoint_of(1)});
    }
    if (std::holds_alternative<ConnectedInput>(input.event) && ++connected == 2)
      self.command(ExitCmd{true, "both connected"});
  };
  scripts[2] = [](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ConnectCmd{7, self.world().endpoint_of(1)});
    if (std::holds_alternative<ConnectedInput>(input.event))
      self.command(ExitCmd{true, "connected"});
  };
  scripts[1] = [accepted = 0](Scripted& self, const Input& input) mutable {
    if (std::holds_alternative<AcceptedInput>(input.event) && ++accepted == 3)
      self.command(ExitCmd{true, "all accepted"});
  };
  const Outcome out = world->run(lan(3), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_all(out, 1));
  INFO(describe_all(out, 2));
  INFO(describe_exits(out));

  // The connecting side hears of its own ids, and only of them.
  std::vector<ConnId> r0_connected;
  for (const auto& [at, c] : out.of<ConnectedInput>(0)) r0_connected.push_back(c.conn);
  std::sort(r0_connected.begin(), r0_connected.end());
  CHECK(r0_connected == std::vector<ConnId>{5, 9});
  const auto r2_connected = out.of<ConnectedInput>(2);
  REQUIRE(r2_connected.size() == 1);
  CHECK(r2_connected[0].second.conn == 7);
  for (Rank r : {0, 1, 2}) CHECK(out.of<ConnectFailedInput>(r).empty());
  CHECK(out.of<AcceptedInput>(0).empty());
  CHECK(out.of<AcceptedInput>(2).empty());
  CHECK(out.of<ConnectedInput>(1).empty());

  // The listening side hears of three connections under ids of the backend's own space.
  const auto accepted = out.of<AcceptedInput>(1);
  REQUIRE(accepted.size() == 3);
  std::set<ConnId> ids;
  for (const auto& [at, a] : accepted) {
    CHECK((a.conn & kAcceptedConnBit) != 0);
    ids.insert(a.conn);
  }
  CHECK(ids.size() == 3);

  if (world->simulated()) {
    // A SYN crosses the switch before the listener can know; its answer comes back before the
    // connector can.
    for (const auto& [at, a] : accepted) CHECK(at >= kOneWay);
    for (Rank r : {0, 2})
      for (const auto& [at, c] : out.of<ConnectedInput>(r)) CHECK(at >= 2 * kOneWay);
  }
  CHECK(out.all_exited_ok);
}

TEST_CASE("connect_refused_exited", "[conformance]") {
  // r1 leaves at once; r0 connects to it 20 ms later.
  auto world = make_world();
  Scripts scripts;
  scripts[0] = connect_once(
      4, [](const Scripted& self) { return self.world().endpoint_of(1); }, 20 * kNsPerMs);
  const Outcome out = world->run(lan(2), scripts, kWallLimit);
  require_connect_failed(out, 0, 4, ConnectFailure::Refused);
}

TEST_CASE("connect_refused_vacant", "[conformance]") {
  // A machine of the run, a port nobody listens on.
  auto world = make_world();
  Scripts scripts;
  scripts[0] = connect_once(
      4, [](const Scripted& self) { return self.world().vacant_endpoint(); }, 1 * kNsPerMs);
  const Outcome out = world->run(lan(2), scripts, kWallLimit);
  require_connect_failed(out, 0, 4, ConnectFailure::Refused);
}

TEST_CASE("connect_unknown_endpoint", "[conformance]") {
  // Not an address of anything: the same answer on every backend, Unreachable (realnet's answer
  // for an endpoint it cannot parse or resolve; Refused is kept for "the machine answered, no
  // one listens").
  auto world = make_world();
  Scripts scripts;
  scripts[0] = connect_once(
      4, [](const Scripted&) { return kUnknownEndpoint; }, 1 * kNsPerMs);
  const Outcome out = world->run(lan(2), scripts, kWallLimit);
  require_connect_failed(out, 0, 4, ConnectFailure::Unreachable);
}

TEST_CASE("connect_given_up_by_the_core", "[conformance]") {
  // r1 connects to r0 behind a dropping firewall and gives up after 500 ms with CloseCmd. The
  // scenario's protocol.connect_timeout is 200 ms: the contract is that backends never apply a
  // protocol connect time-out themselves (the core owns it), so nothing may arrive about the
  // connection before the core's CloseCmd either, and nothing after it.
  constexpr TimeNs kGiveUp = 500 * kNsPerMs;
  constexpr TimeNs kWatch = 1 * kNsPerSec;  // then r1 waits this long for anything late
  auto world = make_world();
  Scripts scripts;
  TimeNs closed_at = -1;
  scripts[1] = [&closed_at](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ConnectCmd{3, self.world().firewalled_endpoint(0)});
      self.command(ArmTimerCmd{1, input.now + kGiveUp});
    }
    if (const auto* fired = std::get_if<TimerFiredInput>(&input.event)) {
      if (fired->timer == 1) {
        closed_at = input.now;
        self.command(CloseCmd{3});
        self.command(ArmTimerCmd{2, input.now + kWatch});
      } else {
        self.command(ExitCmd{true, "gave up"});
      }
    }
  };
  scripts[0] = [](Scripted& self, const Input& input) {  // stays while r1 tries
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ArmTimerCmd{1, input.now + kGiveUp + kWatch + 100 * kNsPerMs});
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, "done"});
  };
  const Outcome out = world->run(firewalled_pair(200 * kNsPerMs), scripts, kWallLimit);
  INFO(describe_all(out, 1));
  INFO(describe_all(out, 0));
  INFO(describe_exits(out));
  REQUIRE(closed_at >= 0);
  CHECK(closed_at >= kGiveUp);
  // Split r1's inputs about connection 3 at the input it closed the connection on.
  std::vector<Input> before, after;
  bool closed = false;
  for (const Input& input : out.all(1)) {
    if (conn_of(input.event) == ConnId{3}) (closed ? after : before).push_back(input);
    const auto* fired = std::get_if<TimerFiredInput>(&input.event);
    if (fired != nullptr && fired->timer == 1) closed = true;
  }
  {
    INFO(
        "the backend answered the connect before the core gave up (a connect time-out of its "
        "own, or a firewall that let the SYN through)");
    CHECK(before.empty());
  }
  {
    INFO("the backend told the core about a connection it had closed while connecting");
    CHECK(after.empty());
  }
  CHECK(out.of<AcceptedInput>(0).empty());
  CHECK(out.of<TimerFiredInput>(1).size() == 2);
  CHECK(out.all_exited_ok);
}
