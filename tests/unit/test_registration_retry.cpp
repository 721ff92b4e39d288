// Registration is the core's decision (issue 31): a node or relay whose connect to the
// rendezvous fails tries again on its own timer, and a rendezvous that never appears ends the
// run with a clear failure within registration_timeout, not a hang. Also: the toy world
// performs every command kind, SetWindow included.
#include <catch2/catch.hpp>

#include <string>

#include "role/registration_retry.hpp"
#include "toy_world.hpp"

using namespace tsunagi;
using tsunagi::testing::ToySites;
using tsunagi::testing::ToyWorld;

namespace {

int count_traces(const ToyWorld& w, const std::string& proc, const std::string& kind) {
  int n = 0;
  for (const auto& record : w.traces)
    if (record.proc == proc && record.trace.kind == kind) ++n;
  return n;
}

}  // namespace

TEST_CASE("registration retry: waits grow, stay within the deadline, and repeat by seed",
          "[registration]") {
  ProtocolConfig cfg;
  cfg.seed = 7;
  cfg.registration_timeout = 30 * kNsPerSec;
  RegistrationRetry a, b;
  a.start("rdv", 0);
  b.start("rdv", 0);
  TimeNs now = 0;
  int attempts = 0;
  while (auto wait = a.next_wait(cfg, 42, now)) {
    CHECK(*wait >= 1);
    CHECK(*wait <= 6'400'000'001);             // at most 100 ms x 2^6
    CHECK(b.next_wait(cfg, 42, now) == wait);  // same seed, salt and attempt: same draw
    now += *wait + cfg.overlay.connect_timeout;
    ++attempts;
  }
  CHECK(attempts == a.attempts());
  CHECK(attempts > 3);
  CHECK(now <= cfg.registration_timeout + cfg.overlay.connect_timeout + 6'400'000'001);
}

TEST_CASE("registration retry: a rendezvous that never appears fails every rank and relay",
          "[registration]") {
  ToySites sites;
  sites.names = {"a"};
  sites.site_of_rank = {0, 0};
  sites.relay_sites = {0};
  ProtocolConfig cfg;
  cfg.overlay.plan = PlanKind::Relay;
  cfg.registration_timeout = 5 * kNsPerSec;
  ToyWorld w(cfg, {0, 0}, {0, 1}, sites);
  w.kill(2, 0);  // the rendezvous (proc n) is gone before it starts
  CHECK_FALSE(w.run(100 * kNsPerSec));
  CHECK(w.now <= 6 * kNsPerSec);  // ended by the deadline, not by the run's limit
  REQUIRE(w.failures.size() == 3);
  for (const std::string& failure : w.failures)
    CHECK_THAT(failure, Catch::Contains("cannot reach the rendezvous"));
  CHECK(count_traces(w, "r0", "register_retry") > 1);
  CHECK(count_traces(w, "a-relay0", "register_retry") > 1);
}

TEST_CASE("toy world: the buffers a core sets are performed, not dropped", "[protocol]") {
  ProtocolConfig cfg;
  cfg.window.mode = WindowMode::Fixed;
  cfg.window.bytes = 1 << 20;
  ToyWorld w(cfg, {0, 0, 1, 1}, {0, 1, 2, 3});
  CHECK(w.run());
  REQUIRE_FALSE(w.windows.empty());
  for (const auto& setting : w.windows) {
    CHECK(setting.window.send_buffer == cfg.window.bytes);
    CHECK(setting.window.recv_buffer == cfg.window.bytes);
  }
}
