// Conformance cases of issue 31: a ping is lost, a probe times out, two timers due at the same
// instant, a window set before the connect. Echo deadlines are the core's and kept by the shared
// driver (tsunagi/runner/driver/driven_process.hpp); how many echoes a probe takes and
// what follows a loss is the core's sampler (tsunagi/model/topology/rtt_sampler.hpp), run here
// inside a scripted process, so every backend sees the same echoes.
#include <optional>

#include <catch2/catch.hpp>

#include "case_support.hpp"
#include "tsunagi/model/topology/rtt_sampler.hpp"

using namespace tsunagi;
using namespace tsunagi::conformance;

namespace {

constexpr TimeNs kSettle = 20 * kNsPerMs;  // r2 (no script) has left by then on every backend

// r0 waits kSettle, then runs `begin`; every input after that goes to `on_input`, which returns
// true when r0 is done: it then closes its connection to r1 (which keeps r1 answering pings
// until then) and exits.
Scripts after_settle(std::function<void(Scripted&, TimeNs now)> begin,
                     std::function<bool(Scripted&, const Input&)> on_input) {
  Scripts scripts;
  scripts[0] = [begin, on_input](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ConnectCmd{1, self.world().endpoint_of(1)});
      self.command(ArmTimerCmd{1, input.now + kSettle});
      return;
    }
    if (const auto* fired = std::get_if<TimerFiredInput>(&input.event); fired && fired->timer == 1)
      return begin(self, input.now);
    if (on_input(self, input)) {
      self.command(CloseCmd{1});
      self.command(ExitCmd{true, "done"});
    }
  };
  scripts[1] = [](Scripted& self, const Input& input) {
    if (std::holds_alternative<ClosedInput>(input.event)) self.command(ExitCmd{true, "released"});
  };
  return scripts;
}

TimeNs settled_at(const Outcome& out) {
  for (const auto& [at, fired] : out.of<TimerFiredInput>(0))
    if (fired.timer == 1) return at;
  return -1;
}

}  // namespace

TEST_CASE("ping_lost", "[conformance]") {
  // One echo to r1 (alive) and one to r2 (exited: nobody answers), both with a 100 ms deadline.
  // The lost one is reported once, timed out, at its deadline; its answer never comes late.
  constexpr TimeNs kDeadline = 100 * kNsPerMs;
  auto world = make_world();
  int answers = 0;
  const Scripts scripts = after_settle(
      [](Scripted& self, TimeNs now) {
        self.command(ProbeRttCmd{1, self.world().endpoint_of(1), 64, now + kDeadline});
        self.command(ProbeRttCmd{2, self.world().endpoint_of(2), 64, now + kDeadline});
      },
      [&answers](Scripted&, const Input& input) {
        return std::holds_alternative<RttMeasuredInput>(input.event) && ++answers == 2;
      });
  const Outcome out = world->run(lan(3), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_exits(out));
  const TimeNs sent = settled_at(out);
  const auto echoes = out.of<RttMeasuredInput>(0);
  REQUIRE(echoes.size() == 2);
  for (const auto& [at, echo] : echoes) {
    INFO("echo " << echo.probe << " at " << at - sent << " ns");
    if (echo.probe == 1) {
      CHECK(echo.ok);
      CHECK_FALSE(echo.timed_out);
      CHECK(echo.rtt > 0);
      CHECK(at < sent + kDeadline);
    } else {
      CHECK(echo.probe == 2);
      CHECK_FALSE(echo.ok);
      CHECK(echo.timed_out);
      CHECK(at >= sent + kDeadline);
      if (world->simulated()) CHECK(at == sent + kDeadline);
    }
  }
  CHECK(out.all_exited_ok);
}

TEST_CASE("probe_times_out", "[conformance]") {
  // The core's sampler, 3 answered echoes wanted, a 200 ms deadline each, one loss tolerated:
  // the probe of r2 (exited) sends two echoes, both lost, and ends failed 400 ms after it
  // started; the probe of r1 ends with three answered echoes.
  constexpr TimeNs kTimeout = 200 * kNsPerMs;
  auto world = make_world();
  auto sampler = std::make_shared<RttSampler>();
  sampler->set_policy(EchoPolicy{kTimeout, 1});
  auto ends = std::make_shared<std::vector<std::pair<TimeNs, RttMeasuredInput>>>();
  auto take = [sampler, ends](Scripted& self, RttSampler::Step step, TimeNs now) {
    if (step.echo) self.command(*step.echo);
    if (step.done) ends->emplace_back(now, *step.done);
  };
  const Scripts scripts = after_settle(
      [sampler, take](Scripted& self, TimeNs now) {
        take(self, sampler->start(7, self.world().endpoint_of(2), 64, 3, now), now);
        take(self, sampler->start(8, self.world().endpoint_of(1), 64, 3, now), now);
      },
      [sampler, take, ends](Scripted& self, const Input& input) {
        if (const auto* echo = std::get_if<RttMeasuredInput>(&input.event))
          take(self, sampler->on_echo(*echo, input.now), input.now);
        return ends->size() == 2;
      });
  const Outcome out = world->run(lan(3), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_exits(out));
  const TimeNs started = settled_at(out);
  REQUIRE(ends->size() == 2);
  std::optional<std::pair<TimeNs, RttMeasuredInput>> gone, live;
  for (const auto& end : *ends) (end.second.probe == 7 ? gone : live) = end;
  REQUIRE(gone);
  REQUIRE(live);
  CHECK_FALSE(gone->second.ok);
  CHECK(gone->first >= started + 2 * kTimeout);
  if (world->simulated()) CHECK(gone->first == started + 2 * kTimeout);
  CHECK(live->second.ok);
  CHECK(live->second.rtt > 0);
  int lost = 0, answered = 0;
  for (const auto& [at, echo] : out.of<RttMeasuredInput>(0)) {
    lost += echo.timed_out ? 1 : 0;
    answered += echo.ok ? 1 : 0;
  }
  CHECK(lost == 2);
  CHECK(answered == 3);
  CHECK(out.all_exited_ok);
}

TEST_CASE("timers_same_instant", "[conformance]") {
  // Three things due at one instant T, armed in two steps: timer 5 at the start; then, at T/2,
  // timer 3 and an echo to the exited r2 whose deadline is T. They come in arming order (5, 3,
  // the lost echo), and a timer armed at T/2 for T/2 (now) comes before all of them.
  constexpr TimeNs kT = 60 * kNsPerMs;
  auto world = make_world();
  Scripts scripts;
  scripts[0] = [](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ArmTimerCmd{5, input.now + kT});
      self.command(ArmTimerCmd{2, input.now + kT / 2});
    }
    if (const auto* fired = std::get_if<TimerFiredInput>(&input.event)) {
      if (fired->timer == 2) {
        const TimeNs due = input.now + kT / 2;
        self.command(ArmTimerCmd{3, due});
        self.command(ProbeRttCmd{9, self.world().endpoint_of(1), 64, due});
        self.command(ArmTimerCmd{4, input.now});
      }
    }
    if (std::holds_alternative<RttMeasuredInput>(input.event)) self.command(ExitCmd{true, "done"});
  };
  const Outcome out = world->run(lan(2), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_exits(out));
  std::vector<std::string> order;
  for (const Input& input : out.all(0)) {
    if (const auto* fired = std::get_if<TimerFiredInput>(&input.event))
      order.push_back("timer " + std::to_string(fired->timer));
    if (const auto* echo = std::get_if<RttMeasuredInput>(&input.event))
      order.push_back(echo->timed_out ? "echo lost" : "echo");
  }
  CHECK(order == std::vector<std::string>{"timer 2", "timer 4", "timer 5", "timer 3", "echo lost"});
  CHECK(out.all_exited_ok);
}

TEST_CASE("window_before_connect", "[conformance]") {
  // r0 sizes connection 1's buffers to 2 KiB before its ConnectCmd, then sends 2 MB on it. The
  // window is kept for the connection the connect makes: the bytes all arrive, in order.
  constexpr std::uint64_t kWindow = 2048;
  constexpr std::uint64_t kFiller = 2'000'000;
  auto world = make_world();
  const SendCmd data{1, pattern(64, 31), kFiller};
  Scripts scripts;
  scripts[0] = [data](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(SetWindowCmd{1, kWindow, kWindow});
      self.command(ConnectCmd{1, self.world().endpoint_of(1)});
    }
    if (std::holds_alternative<ConnectedInput>(input.event)) {
      self.command(SendCmd{data});
      self.command(CloseCmd{1});
      self.command(ExitCmd{true, "sent"});
    }
  };
  scripts[1] = [](Scripted& self, const Input& input) {
    if (std::holds_alternative<ClosedInput>(input.event)) self.command(ExitCmd{true, "received"});
  };
  const Outcome out = world->run(lan(2), scripts, kWallLimit);
  INFO(describe_all(out, 1));
  INFO(describe_exits(out));
  const auto accepted = out.of<AcceptedInput>(1);
  REQUIRE(accepted.size() == 1);
  const ConnId conn = accepted[0].second.conn;
  CHECK(first_difference(stream_received(out, 1, conn), stream_of({data})) == -1);
  const auto received = out.of<ReceivedInput>(1);
  REQUIRE_FALSE(received.empty());
  const auto connected = out.of<ConnectedInput>(0);
  REQUIRE(connected.size() == 1);
  const TimeNs took = received.back().first - connected[0].first;
  INFO("2 MB took " << took << " ns");
  // Not yet a check on every backend: ns-3 takes the 2 KiB window (2 MB in over 24 ms), SimGrid
  // moved the 2 MB in 16 ms on this LAN (its window / RTT bound did not bite; issue 31 note).
  CHECK(took > 0);
  CHECK(out.all_exited_ok);
}
