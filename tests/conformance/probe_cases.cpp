// Conformance cases 6-7: RTT and throughput probes to a live peer, to a peer that has exited
// and to an unknown endpoint.
#include <map>

#include <catch2/catch.hpp>

#include "case_support.hpp"

using namespace tsunagi;
using namespace tsunagi::conformance;

namespace {

// r1 stays alive until r0 closes the connection it opened to it; r2 leaves at once. r0 waits
// 20 ms (so r2 is gone on every backend), sends `probes`, and leaves once each has its answer.
Scripts probing(std::function<std::vector<Command>(const Scripted&, TimeNs now)> probes,
                std::size_t expect) {
  Scripts scripts;
  scripts[0] = [probes, expect, answers = std::size_t{0}](Scripted& self,
                                                          const Input& input) mutable {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ConnectCmd{1, self.world().endpoint_of(1)});
      self.command(ArmTimerCmd{1, input.now + 20 * kNsPerMs});
    }
    if (std::holds_alternative<TimerFiredInput>(input.event))
      for (Command& command : probes(self, input.now)) self.command(std::move(command));
    if (std::holds_alternative<RttMeasuredInput>(input.event) ||
        std::holds_alternative<ThroughputMeasuredInput>(input.event)) {
      if (++answers == expect) {
        self.command(CloseCmd{1});
        self.command(ExitCmd{true, "probed"});
      }
    }
  };
  scripts[1] = [](Scripted& self, const Input& input) {
    if (std::holds_alternative<ClosedInput>(input.event)) self.command(ExitCmd{true, "released"});
  };
  return scripts;
}

// A probe of a process that has exited, or of an unknown endpoint, fails as soon as the world
// has said so: a TCP connect to a closed port is refused within a round trip, an unanswered echo
// is lost at its deadline (the core's: these scripts give it 300 ms). Not
// after the kernel's SYN retries (127 s). 2 s covers every backend with room.
constexpr TimeNs kGoneAnswerWithin = 2 * kNsPerSec;
constexpr TimeNs kEchoDeadline = 300 * kNsPerMs;

// When r0 sent its probes (its TimerFired{1}).
TimeNs probes_sent_at(const Outcome& out) {
  const auto fired = out.of<TimerFiredInput>(0);
  return fired.empty() ? 0 : fired.front().first;
}

template <class T>
std::map<std::uint64_t, std::vector<std::pair<TimeNs, T>>> by_probe(const Outcome& out) {
  std::map<std::uint64_t, std::vector<std::pair<TimeNs, T>>> found;
  for (const auto& [at, m] : out.template of<T>(0)) found[m.probe].emplace_back(at, m);
  return found;
}

}  // namespace

TEST_CASE("rtt_probe", "[conformance]") {
  auto world = make_world();
  const Scripts scripts = probing(
      [](const Scripted& self, TimeNs now) {
        const TimeNs deadline = now + kEchoDeadline;
        return std::vector<Command>{ProbeRttCmd{1, self.world().endpoint_of(1), 64, deadline},
                                    ProbeRttCmd{2, self.world().endpoint_of(2), 64, deadline},
                                    ProbeRttCmd{3, kUnknownEndpoint, 64, deadline}};
      },
      3);
  const Outcome out = world->run(lan(3), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_exits(out));
  const auto results = by_probe<RttMeasuredInput>(out);
  REQUIRE(results.size() == 3);
  for (const auto& [probe, answers] : results) {
    INFO("probe " << probe);
    CHECK(answers.size() == 1);
  }
  const RttMeasuredInput live = results.at(1).front().second;
  CHECK(live.ok);
  CHECK(live.rtt > 0);
  if (world->simulated()) CHECK(live.rtt >= 2 * kOneWay);
  for (std::uint64_t gone : {2, 3}) {
    INFO("RTT probe " << gone
                      << (gone == 2 ? ", of a process that has exited"
                                    : ", of an unknown endpoint"));
    const auto& [at, answer] = results.at(gone).front();
    CHECK_FALSE(answer.ok);
    CHECK(at - probes_sent_at(out) <= kGoneAnswerWithin);
  }
  CHECK(out.all_exited_ok);
}

TEST_CASE("throughput_probe", "[conformance]") {
  constexpr std::uint64_t kBytes = 1'000'000;
  auto world = make_world();
  const Scripts scripts = probing(
      [](const Scripted& self, TimeNs /*now*/) {
        return std::vector<Command>{ProbeThroughputCmd{1, self.world().endpoint_of(1), kBytes},
                                    ProbeThroughputCmd{2, self.world().endpoint_of(2), kBytes},
                                    ProbeThroughputCmd{3, kUnknownEndpoint, kBytes}};
      },
      3);
  const Outcome out = world->run(lan(3), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_exits(out));
  const auto results = by_probe<ThroughputMeasuredInput>(out);
  REQUIRE(results.size() == 3);
  for (const auto& [probe, answers] : results) {
    INFO("probe " << probe);
    CHECK(answers.size() == 1);
  }
  const ThroughputMeasuredInput live = results.at(1).front().second;
  CHECK(live.ok);
  CHECK(live.bytes == kBytes);
  CHECK(live.elapsed > 0);
  if (world->simulated())  // 1 MB over 1 Gbit/s host links: at least 8 ms
    CHECK(static_cast<double>(live.elapsed) >= static_cast<double>(kBytes) / kHostBandwidth * 1e9);
  for (std::uint64_t gone : {2, 3}) {
    INFO("throughput probe " << gone
                             << (gone == 2 ? ", of a process that has exited"
                                           : ", of an unknown endpoint"));
    const auto& [at, answer] = results.at(gone).front();
    CHECK_FALSE(answer.ok);
    CHECK(at - probes_sent_at(out) <= kGoneAnswerWithin);
  }
  CHECK(out.all_exited_ok);
}
