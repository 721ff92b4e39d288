// Conformance cases 8-10: timers, a process's own exit, and a kill from the scenario.
#include <catch2/catch.hpp>

#include "case_support.hpp"

using namespace tsunagi;
using namespace tsunagi::conformance;

namespace {

// Peers of the process that goes away: connect to r0, send it a frame, leave on ClosedInput.
Script connect_and_wait_for_close() {
  return [](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ConnectCmd{1, self.world().endpoint_of(0)});
    if (std::holds_alternative<ConnectedInput>(input.event))
      self.command(SendCmd{1, pattern(64, 21), 0});
    if (std::holds_alternative<ClosedInput>(input.event)) self.command(ExitCmd{true, "r0 gone"});
  };
}

// Each peer saw exactly one ClosedInput on its connection to r0, no earlier than `gone_at`
// (plus the trip across the switch on a simulator).
void check_peers_saw_close(const World& world, const Outcome& out, TimeNs gone_at) {
  for (Rank peer : {1, 2}) {
    INFO(describe_all(out, peer));
    REQUIRE(out.of<ConnectedInput>(peer).size() == 1);
    const auto closed = out.of<ClosedInput>(peer);
    REQUIRE(closed.size() == 1);
    CHECK(closed[0].second.conn == 1);
    CHECK(closed[0].first >= gone_at + (world.simulated() ? kOneWay : 0));
    const auto exit = out.exit_of(runner::process_label(peer));
    REQUIRE(exit);
    CHECK(exit->ok);
  }
}

}  // namespace

TEST_CASE("timers", "[conformance]") {
  // r0 arms eight timers out of order (three with one deadline, one due at once) and leaves on
  // the seventh to fire; r1 arms one and leaves at once.
  struct Arm {
    std::uint64_t id;
    TimeNs after;
  };
  static const std::vector<Arm> kArms = {{1, 30 * kNsPerMs}, {2, 10 * kNsPerMs}, {3, 20 * kNsPerMs},
                                         {4, 20 * kNsPerMs}, {5, 20 * kNsPerMs}, {6, 0},
                                         {7, 40 * kNsPerMs}, {8, 60 * kNsPerMs}};
  auto world = make_world();
  TimeNs started_at = -1;
  Scripts scripts;
  scripts[0] = [&started_at](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      started_at = input.now;
      for (const Arm& arm : kArms) self.command(ArmTimerCmd{arm.id, input.now + arm.after});
    }
    if (const auto* fired = std::get_if<TimerFiredInput>(&input.event); fired && fired->timer == 7)
      self.command(ExitCmd{true, "timer 7"});
  };
  scripts[1] = [](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ArmTimerCmd{1, input.now + 10 * kNsPerMs});
      self.command(ExitCmd{true, "left with a timer armed"});
    }
  };
  const Outcome out = world->run(lan(2), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_all(out, 1));
  INFO(describe_exits(out));
  REQUIRE(started_at >= 0);

  // Deadline order, equal deadlines in arming order, nothing after the exit.
  std::vector<std::uint64_t> order;
  for (const auto& [at, fired] : out.of<TimerFiredInput>(0)) {
    order.push_back(fired.timer);
    TimeNs due = 0;
    for (const Arm& arm : kArms)
      if (arm.id == fired.timer) due = started_at + arm.after;
    INFO("timer " << fired.timer);
    CHECK(at >= due);
    if (world->simulated()) CHECK(at == due);
  }
  CHECK(order == std::vector<std::uint64_t>{6, 2, 3, 4, 5, 1, 7});
  CHECK(std::holds_alternative<TimerFiredInput>(out.all(0).back().event));
  CHECK(out.all(1).size() == 1);  // Started only: its timer never fires after its exit
  CHECK(out.all_exited_ok);
}

TEST_CASE("exit_closes_connections", "[conformance]") {
  // r1 and r2 connect to r0 and send it a frame. Once r0 has accepted both it arms a timer,
  // starts an RTT probe and exits in the same step: it must get no input after that, and both
  // peers must see their connection close.
  auto world = make_world();
  Scripts scripts;
  scripts[0] = [accepted = 0](Scripted& self, const Input& input) mutable {
    if (std::holds_alternative<AcceptedInput>(input.event) && ++accepted == 2) {
      self.command(ArmTimerCmd{1, input.now + 10 * kNsPerMs});
      self.command(ProbeRttCmd{1, self.world().endpoint_of(1), 64});
      self.command(ExitCmd{true, "leaving"});
    }
  };
  scripts[1] = connect_and_wait_for_close();
  scripts[2] = connect_and_wait_for_close();
  const Outcome out = world->run(lan(3), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_exits(out));
  const auto exit = out.exit_of("r0");
  REQUIRE(exit);
  CHECK(exit->ok);
  // r0's last input is the second AcceptedInput, the one it exited on.
  const std::vector<Input>& r0 = out.all(0);
  REQUIRE_FALSE(r0.empty());
  CHECK(std::holds_alternative<AcceptedInput>(r0.back().event));
  CHECK(out.of<AcceptedInput>(0).size() == 2);
  check_peers_saw_close(*world, out, exit->now);
  CHECK(out.all_exited_ok);
}

TEST_CASE("kill_closes_connections", "[conformance]") {
  // The scenario kills r0 at 100 ms; it would have left at 1 s. r1 and r2 are connected to it.
  // On realnet in-process the kill is what the daemon does on SIGTERM: AsioProcess::stop, then
  // shut_down (realnet_world.cpp).
  constexpr TimeNs kKillAt = 100 * kNsPerMs;
  auto world = make_world();
  Scripts scripts;
  scripts[0] = [](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ArmTimerCmd{1, input.now + 1 * kNsPerSec});
    if (std::holds_alternative<TimerFiredInput>(input.event))
      self.command(ExitCmd{true, "not killed"});
  };
  scripts[1] = connect_and_wait_for_close();
  scripts[2] = connect_and_wait_for_close();
  const Outcome out = world->run(lan_with_kill(3, "r0", kKillAt), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_exits(out));
  const auto exit = out.exit_of("r0");
  REQUIRE(exit);
  CHECK(exit->now >= kKillAt);
  if (world->simulated()) CHECK(exit->now == kKillAt);
  // Whether a kill counts as an ok exit is each backend's bookkeeping (the simulators record it
  // as intended, realnet's stop() as failed): not part of this contract.
  CHECK(out.of<TimerFiredInput>(0).empty());
  for (const Input& input : out.all(0)) CHECK(input.now <= exit->now);
  CHECK(out.of<AcceptedInput>(0).size() == 2);
  check_peers_saw_close(*world, out, exit->now);
}
