// The delay line as a serial link (delayline/link_clock.hpp, docs/lmmc.md "Fig. 9/10"), no
// root: every frame is held its own serialisation time and frames leave in FIFO order; a link
// without a rate is the fixed delay it was. The launcher gives the rate to serial links only:
// switched, WAN and Dragonfly links keep their delay line without one.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "delayline/delay_line.hpp"
#include "delayline/link_clock.hpp"
#include "launcher/netns_network.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace rn = tsunagi::realnet;
using namespace tsunagi;

namespace {

rn::NetnsPlan plan_of(const std::string& relative, double scale) {
  const scenario::Scenario s =
      scenario::load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + relative, {});
  return rn::plan_netns(s, "tsgT-", {scale, 1000, 0});
}

}  // namespace

TEST_CASE("link clock: a frame on its own is held its serialisation time plus the delay") {
  rn::LinkClock clock(1000, 20'000'000);  // 1 us, 20 Mbit/s: 0.4 us per byte
  CHECK(clock.wire_ns(1) == 400);
  CHECK(clock.wire_ns(1514) == 605'600);
  CHECK(clock.admit(1'000'000, 100) == 1'000'000 + 40'000 + 1000);
  // After an idle gap the next frame pays its own time again: no bucket of saved credit.
  CHECK(clock.admit(50'000'000, 1514) == 50'000'000 + 605'600 + 1000);
  // Rounded up: 3 bytes at 7 bit/s.
  CHECK(rn::LinkClock(0, 7).wire_ns(3) == (24 * 1'000'000'000LL + 6) / 7);
}

TEST_CASE("link clock: frames queue behind each other on the wire, in order") {
  rn::LinkClock clock(5000, 8'000'000);  // 1 us per byte
  // Three frames read at once: each starts when the one before has left.
  CHECK(clock.admit(0, 1000) == 1'000'000 + 5000);
  CHECK(clock.admit(0, 10) == 1'010'000 + 5000);
  CHECK(clock.admit(100, 500) == 1'510'000 + 5000);
  // One read while the wire is still busy waits for it; one read after it is free does not.
  CHECK(clock.admit(1'600'000, 100) == 1'700'000 + 5000);
  CHECK(clock.admit(1'650'000, 100) == 1'800'000 + 5000);
  std::int64_t last = 0;
  rn::LinkClock fifo(0, 1'000'000);
  for (int k = 0; k < 100; ++k) {
    const std::int64_t release =
        fifo.admit(k * 3000, static_cast<std::size_t>(1 + (k * 37) % 1500));
    CHECK(release > last);
    last = release;
  }
}

TEST_CASE("link clock: without a rate the link is a fixed delay") {
  rn::LinkClock clock(2'000'000, 0);
  CHECK(clock.wire_ns(1514) == 0);
  CHECK(clock.admit(10, 1514) == 2'000'010);
  CHECK(clock.admit(10, 1514) == 2'000'010);
}

TEST_CASE("delay line wait: poll the last spin_ns while the budget lasts, else sleep") {
  // Nothing queued: sleep until a frame comes.
  CHECK_FALSE(rn::plan_wait(-1, 1000, 40'000, true).poll);
  CHECK(rn::plan_wait(-1, 1000, 40'000, true).timer_ns == -1);
  // Far: a timer spin_ns before the release.
  CHECK_FALSE(rn::plan_wait(500'000, 0, 40'000, true).poll);
  CHECK(rn::plan_wait(500'000, 0, 40'000, true).timer_ns == 460'000);
  // Near, with budget: poll.
  CHECK(rn::plan_wait(500'000, 470'000, 40'000, true).poll);
  // Near, budget spent: a timer at the release itself, never in the past.
  const rn::Wait spent = rn::plan_wait(500'000, 470'000, 40'000, false);
  CHECK_FALSE(spent.poll);
  CHECK(spent.timer_ns == 500'000);
  // No polling asked for: the timer at the release.
  CHECK(rn::plan_wait(500'000, 0, 0, true).timer_ns == 500'000);
  CHECK_FALSE(rn::plan_wait(500'000, 0, 0, true).poll);
}

TEST_CASE("delay line --link: the rate is optional and checked") {
  const rn::DelayLinkSpec plain = rn::parse_delay_link("a:s0:b:s0:1000");
  CHECK(plain.delay_ns == 1000);
  CHECK(plain.rate_bits_per_s == 0);
  const rn::DelayLinkSpec serial = rn::parse_delay_link("a:s0:b:s0:0:20000000");
  CHECK(serial.ns_b == "b");
  CHECK(serial.delay_ns == 0);
  CHECK(serial.rate_bits_per_s == 20'000'000);
  for (const char* bad : {"a:s0:b:s0", "a:s0:b:s0:1:2:3", "a:s0:b:s0:x", "a:s0:b:s0:-1",
                          "a:s0:b:s0:1:0", "a:s0:b:s0:1:-5", "a:s0:b:s0:1:20M", ":s0:b:s0:1"}) {
    INFO(bad);
    CHECK_THROWS_AS(rn::parse_delay_link(bad), std::invalid_argument);
  }
}

TEST_CASE("serial links are rated delay lines at every scale, the console link is not") {
  for (const double scale : {0.0, 1.0, 50.0}) {
    INFO("scale " << scale);
    const rn::NetnsPlan plan = plan_of("papers/lmmc-2node.toml", scale);
    const rn::DelayLink* serial = nullptr;
    for (const rn::DelayLink& link : plan.delay_links)
      if (link.if_a == "s0") serial = &link;
    REQUIRE(serial != nullptr);
    CHECK(serial->delay == static_cast<TimeNs>(1000 * scale));  // the scenario's 1 us, scaled
    CHECK(serial->rate == Approx(20e6 / 8));
    for (const rn::DelayLink& link : plan.delay_links)
      if (link.if_a == "c0") CHECK(link.rate == 0);
    const std::vector<std::string> args = rn::delay_line_args(plan);
    CHECK(std::find(args.begin(), args.end(),
                    "tsgT-h0:s0:tsgT-h1:s0:" + std::to_string(serial->delay) + ":20000000") !=
          args.end());
    const auto spin = std::find(args.begin(), args.end(), "--spin-us");
    REQUIRE(spin != args.end());
    CHECK(*(spin + 1) == "40");
  }
  // At scale 0 the console's 1 us is no delay line, and nothing else is either.
  CHECK(plan_of("papers/lmmc-2node.toml", 0.0).delay_links.size() == 1);
}

TEST_CASE("switched, WAN and Dragonfly links keep their delay line without a rate") {
  for (const char* relative : {"teaching/two-switches.toml", "papers/supersinet-4.toml",
                               "teaching/dragonfly-16.toml", "teaching/long-fat-pair.toml"}) {
    INFO(relative);
    const rn::NetnsPlan plan = plan_of(relative, 50.0);
    CHECK_FALSE(plan.delay_links.empty());
    for (const rn::DelayLink& link : plan.delay_links) CHECK(link.rate == 0);
    const std::vector<std::string> args = rn::delay_line_args(plan);
    CHECK(std::find(args.begin(), args.end(), "--spin-us") == args.end());  // sleeps, as before
    for (std::size_t k = 0; k < args.size(); k += 2) {
      CHECK(args[k] == "--link");
      CHECK(std::count(args[k + 1].begin(), args[k + 1].end(), ':') == 4);
    }
  }
}
