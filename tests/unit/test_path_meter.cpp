// Auto windows that fill long links (issue 32): the path meter's decisions on tables of
// transfer times with slow start, timing noise and overlapping traffic.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>

#include "tsunagi/model/window/path_meter.hpp"

using namespace tsunagi;

namespace {

constexpr double kGigabit = 125e6;  // bytes per second

// The time a fresh TCP connection needs to deliver `bytes` over a path of `rate` and `rtt`:
// slow start from a 10-segment window, doubling every round trip until the window holds the
// bandwidth-delay product, then the path's rate; plus the last byte's one-way flight.
TimeNs slow_start_time(std::uint64_t bytes, double rate, TimeNs rtt) {
  const double rtt_s = static_cast<double>(rtt) / 1e9;
  const double bdp = rate * rtt_s;
  double sent = 0, seconds = 0, cwnd = 10 * 1448;
  while (cwnd < bdp && sent + cwnd < static_cast<double>(bytes)) {
    sent += cwnd;
    seconds += rtt_s;
    cwnd *= 2;
  }
  seconds += (static_cast<double>(bytes) - sent) / rate + rtt_s / 2;
  return static_cast<TimeNs>(seconds * 1e9);
}

using Transfer = std::function<TimeNs(std::uint64_t bytes, int probe)>;

// Runs a meter to its decision against a model of the path; returns the estimate.
PathEstimate run_meter(const WindowConfig& config, TimeNs rtt, const Transfer& transfer,
                       std::vector<ProbeSample>* samples = nullptr) {
  PathMeter meter(config, rtt);
  for (int probe = 0; !meter.done(); ++probe) {
    REQUIRE(probe < 16);
    const std::uint64_t bytes = meter.next_bytes();
    meter.measured(bytes, transfer(bytes, probe));
  }
  if (samples != nullptr) *samples = meter.samples();
  REQUIRE(meter.estimate());
  return *meter.estimate();
}

WindowConfig auto_config() {
  WindowConfig c;
  c.mode = WindowMode::Auto;
  return c;
}

}  // namespace

TEST_CASE("path meter: one probe with slow start reads far below a long path", "[window]") {
  // Why one probe is not enough (issue 32: ns-3 read 0.47 of the link at 17 ms, 0.26 at 33).
  const TimeNs rtt = 33 * kNsPerMs;
  const double one_probe = probe_rate(8u << 20, slow_start_time(8u << 20, kGigabit, rtt), rtt);
  CHECK(one_probe < 0.5 * kGigabit);
}

TEST_CASE("path meter: probes of growing sizes cancel slow start", "[window]") {
  const WindowConfig c = auto_config();
  for (int ms : {1, 4, 10, 17, 33, 42, 60, 100, 150}) {
    const TimeNs rtt = ms * kNsPerMs;
    std::vector<ProbeSample> samples;
    const PathEstimate path = run_meter(
        c, rtt, [&](std::uint64_t b, int) { return slow_start_time(b, kGigabit, rtt); }, &samples);
    CAPTURE(ms, path.bytes_per_second, samples.size());
    CHECK(path.rtt == rtt);
    CHECK(path.bytes_per_second == Approx(kGigabit).epsilon(0.02));
    // The window then holds the bandwidth-delay product (up to the ceiling).
    const double bdp = kGigabit * static_cast<double>(rtt) / 1e9;
    CHECK(static_cast<double>(auto_window(c, path)) >=
          std::min(bdp, static_cast<double>(c.max_bytes)));
    CHECK(samples.size() >= 2);
    CHECK(samples.back().bytes <= 2 * c.max_bytes);
  }
}

TEST_CASE("path meter: sizes double from window_probe_bytes up to the ceiling", "[window]") {
  WindowConfig c = auto_config();
  c.probe_bytes = 1u << 20;
  c.max_bytes = 4u << 20;
  // A path whose rate keeps growing with the size (never steady): the meter stops at the cap.
  PathMeter meter(c, 10 * kNsPerMs);
  std::vector<std::uint64_t> sizes;
  while (!meter.done()) {
    sizes.push_back(meter.next_bytes());
    const auto bytes = static_cast<double>(sizes.back());
    meter.measured(sizes.back(), static_cast<TimeNs>(1e9 * std::sqrt(bytes / 1e9)));
  }
  CHECK(sizes == std::vector<std::uint64_t>{1u << 20, 2u << 20, 4u << 20, 8u << 20});
  CHECK(meter.next_bytes() == 0);
}

TEST_CASE("path meter: timing noise and overlapping transfers", "[window]") {
  const WindowConfig c = auto_config();
  const TimeNs rtt = 17 * kNsPerMs;
  const auto clean = [&](std::uint64_t b) { return slow_start_time(b, kGigabit, rtt); };
  SECTION("a jitter of +-2 ms on every probe") {
    for (int sign : {-1, 1}) {
      const PathEstimate path = run_meter(c, rtt, [&](std::uint64_t b, int probe) {
        return clean(b) + (probe % 2 == 0 ? sign : -sign) * 2 * kNsPerMs;
      });
      CAPTURE(sign);
      CHECK(path.bytes_per_second > 0.9 * kGigabit);
    }
  }
  SECTION("another node's transfer halves the rate of the last probe") {
    std::vector<ProbeSample> samples;
    const PathEstimate path = run_meter(
        c, rtt,
        [&](std::uint64_t b, int probe) {
          return probe < 2
                     ? clean(b)
                     : clean(b) + static_cast<TimeNs>(static_cast<double>(b) / kGigabit * 1e9);
        },
        &samples);
    CHECK(path.bytes_per_second > 0.9 * kGigabit);  // the best pair is kept
  }
  SECTION("a larger probe that took no longer tells nothing: a larger one follows") {
    PathMeter meter(c, rtt);
    meter.measured(meter.next_bytes(), 100 * kNsPerMs);
    meter.measured(meter.next_bytes(), 90 * kNsPerMs);
    CHECK_FALSE(meter.done());
    CHECK(meter.next_bytes() == 4 * c.probe_bytes);
  }
}

TEST_CASE("path meter: failed probes", "[window]") {
  const WindowConfig c = auto_config();
  PathMeter none(c, 5 * kNsPerMs);
  none.failed();
  CHECK(none.done());
  CHECK_FALSE(none.estimate());
  PathMeter one(c, 5 * kNsPerMs);
  one.measured(8u << 20, 100 * kNsPerMs);
  one.failed();
  REQUIRE(one.estimate());
  CHECK(one.estimate()->bytes_per_second ==
        Approx(probe_rate(8u << 20, 100 * kNsPerMs, 5 * kNsPerMs)));
}

TEST_CASE("path meter: the rate between two probes", "[window]") {
  CHECK(*difference_rate({1000, 10 * kNsPerMs}, {3000, 12 * kNsPerMs}) == Approx(1e6));
  CHECK_FALSE(difference_rate({1000, 10 * kNsPerMs}, {3000, 10 * kNsPerMs}));
  CHECK_FALSE(difference_rate({3000, 10 * kNsPerMs}, {1000, 12 * kNsPerMs}));
}

TEST_CASE("path meter: a probe's buffers follow what was seen", "[window]") {
  const WindowConfig c = auto_config();
  PathMeter meter(c, 10 * kNsPerMs);
  CHECK(meter.next_window() == c.max_bytes);  // nothing seen yet
  // 8 MiB at 0.5 Gbit/s (slow start): the next probe may hold 4 x 625 KB.
  meter.measured(8u << 20, static_cast<TimeNs>(8388608 / 62.5e6 * 1e9) + 5 * kNsPerMs);
  CHECK(meter.next_window() == 2502656);  // 4 x 62.5e6 x 10 ms, rounded up to 4 KiB
  PathMeter lan(c, 50 * kNsPerUs);
  lan.measured(8u << 20, 100 * kNsPerMs);
  CHECK(lan.next_window() == c.min_bytes);
}
