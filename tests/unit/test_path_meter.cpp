// Auto windows that fill long links (issue 32): the path meter's decisions on tables of
// transfer times with slow start, window limits, timing noise and overlapping traffic.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>

#include "tsunagi/model/window/path_meter.hpp"

using namespace tsunagi;

namespace {

constexpr double kGigabit = 125e6;  // bytes per second

// The time a fresh TCP connection with `window` bytes of buffers needs to deliver `bytes` over
// a path of `rate` and `rtt`: slow start from a 10-segment window, doubling every round trip
// until it holds what the path or the buffers allow, then that rate (at most a window per round
// trip); plus the last byte's one-way flight.
TimeNs transfer_time(std::uint64_t bytes, std::uint64_t window, double rate, TimeNs rtt) {
  const double rtt_s = static_cast<double>(rtt) / 1e9;
  const double steady = std::min(rate, static_cast<double>(window) / rtt_s);
  const double full = steady * rtt_s;
  double sent = 0, seconds = 0, cwnd = 10 * 1448;
  while (cwnd < full && sent + cwnd < static_cast<double>(bytes)) {
    sent += cwnd;
    seconds += rtt_s;
    cwnd *= 2;
  }
  seconds += (static_cast<double>(bytes) - sent) / steady + rtt_s / 2;
  return static_cast<TimeNs>(seconds * 1e9);
}

using Transfer = std::function<TimeNs(std::uint64_t bytes, std::uint64_t window, int probe)>;

// Runs a meter to its decision against a model of the path; returns the estimate.
PathEstimate run_meter(const WindowConfig& config, TimeNs rtt, const Transfer& transfer,
                       std::vector<ProbeSample>* samples = nullptr) {
  PathMeter meter(config, rtt);
  for (int probe = 0; !meter.done(); ++probe) {
    REQUIRE(probe < 40);
    const std::uint64_t bytes = meter.next_bytes();
    meter.measured(bytes, transfer(bytes, meter.next_window(), probe));
  }
  if (samples != nullptr) *samples = meter.samples();
  REQUIRE(meter.estimate());
  return *meter.estimate();
}

Transfer clean_path(double rate, TimeNs rtt) {
  return [=](std::uint64_t b, std::uint64_t w, int) { return transfer_time(b, w, rate, rtt); };
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
  const double one_probe =
      probe_rate(8u << 20, transfer_time(8u << 20, 32u << 20, kGigabit, rtt), rtt);
  CHECK(one_probe < 0.5 * kGigabit);
}

TEST_CASE("path meter: pairs of probes with one window cancel slow start", "[window]") {
  const WindowConfig c = auto_config();
  for (double rate : {kGigabit / 10, kGigabit, 10 * kGigabit}) {
    for (int ms : {1, 4, 10, 17, 33, 42, 60, 100, 150, 250}) {
      const TimeNs rtt = ms * kNsPerMs;
      std::vector<ProbeSample> samples;
      const PathEstimate path = run_meter(c, rtt, clean_path(rate, rtt), &samples);
      CAPTURE(rate, ms, path.bytes_per_second, samples.size());
      const double bdp = rate * static_cast<double>(rtt) / 1e9;
      const double reachable = std::min(rate, static_cast<double>(c.max_bytes) / (ms / 1e3));
      CHECK(path.rtt == rtt);
      CHECK(path.bytes_per_second == Approx(reachable).epsilon(0.03));
      CHECK(path.bytes_per_second <= reachable * 1.0001);  // never above what the path allows
      // The window then holds the bandwidth-delay product (up to the ceiling).
      CHECK(static_cast<double>(auto_window(c, path)) >=
            std::min(bdp, static_cast<double>(c.max_bytes)));
      // A scout, then pairs: both probes of a pair share a window, the larger is twice the
      // smaller, and each pair's window doubles the one before.
      REQUIRE(samples.size() % 2 == 1);
      CHECK(samples[0].window == c.max_bytes);
      for (std::size_t i = 1; i + 1 < samples.size(); i += 2) {
        CHECK(samples[i].window == samples[i + 1].window);
        CHECK(samples[i + 1].bytes == 2 * samples[i].bytes);
        CHECK(static_cast<double>(samples[i].bytes) >=
              PathMeter::kSteadyWindows * static_cast<double>(samples[i].window));
        if (i > 1)
          CHECK(samples[i].window ==
                std::min<std::uint64_t>(c.max_bytes, 2 * samples[i - 2].window));
      }
    }
  }
}

TEST_CASE("path meter: a pair held back by its window doubles the window", "[window]") {
  WindowConfig c = auto_config();
  const TimeNs rtt = 100 * kNsPerMs;  // BDP 12.5 MB
  std::vector<ProbeSample> samples;
  run_meter(c, rtt, clean_path(kGigabit, rtt), &samples);
  std::vector<std::uint64_t> windows;
  for (std::size_t i = 1; i < samples.size(); i += 2) windows.push_back(samples[i].window);
  CAPTURE(windows);
  REQUIRE(windows.size() >= 2);
  CHECK(static_cast<double>(windows.back()) > 12.5e6 / PathMeter::kWindowLimited);
  CHECK(static_cast<double>(windows[windows.size() - 2]) < 12.5e6 / PathMeter::kWindowLimited);
  // The ceiling stops the doubling: a path faster than max_bytes / RTT.
  c.max_bytes = 4u << 20;
  const PathEstimate capped = run_meter(c, rtt, clean_path(kGigabit, rtt), &samples);
  CHECK(samples.back().window == c.max_bytes);
  CHECK(capped.bytes_per_second == Approx(4194304 / 0.1).epsilon(0.03));
}

TEST_CASE("path meter: timing noise", "[window]") {
  const WindowConfig c = auto_config();
  const TimeNs rtt = 17 * kNsPerMs;
  for (int sign : {-1, 1}) {
    const PathEstimate path = run_meter(c, rtt, [&](std::uint64_t b, std::uint64_t w, int probe) {
      return transfer_time(b, w, kGigabit, rtt) + (probe % 2 == 0 ? sign : -sign) * 2 * kNsPerMs;
    });
    CAPTURE(sign);
    CHECK(path.bytes_per_second > 0.9 * kGigabit);
    CHECK(path.bytes_per_second < 1.1 * kGigabit);
  }
  SECTION("a larger probe that took no longer tells nothing: the same window, longer probes") {
    PathMeter meter(c, rtt);
    meter.measured(meter.next_bytes(), 200 * kNsPerMs);  // the scout
    const std::uint64_t window = meter.next_window();
    const std::uint64_t small = meter.next_bytes();
    meter.measured(small, 100 * kNsPerMs);
    meter.measured(meter.next_bytes(), 90 * kNsPerMs);
    CHECK_FALSE(meter.done());
    CHECK(meter.next_window() == window);
    CHECK(meter.next_bytes() == 2 * small);
  }
  SECTION("noise on every pair: the meter stops at the size cap on the floor it has") {
    PathMeter meter(c, 50 * kNsPerUs);
    int probes = 0;
    while (!meter.done()) {
      REQUIRE(++probes < 40);
      meter.measured(meter.next_bytes(), 10 * kNsPerMs);
    }
    CHECK(meter.samples().back().bytes <= 6 * c.max_bytes);
    REQUIRE(meter.estimate());
    CHECK(meter.estimate()->bytes_per_second > 0);
  }
}

TEST_CASE("path meter: transfers of other nodes overlapping a probe", "[window]") {
  const WindowConfig c = auto_config();
  const TimeNs rtt = 33 * kNsPerMs;
  const auto clean = [&](std::uint64_t b, std::uint64_t w) {
    return transfer_time(b, w, kGigabit, rtt);
  };
  const auto halved = [&](std::uint64_t b, std::uint64_t w) {
    return transfer_time(b, w, kGigabit / 2, rtt);
  };
  SECTION("a pair slower than the one before (with a smaller window) is made again") {
    std::vector<ProbeSample> samples;
    const PathEstimate path = run_meter(
        c, rtt,
        [&](std::uint64_t b, std::uint64_t w, int probe) {
          return probe == 3 || probe == 4 ? halved(b, w) : clean(b, w);
        },
        &samples);
    CHECK(path.bytes_per_second == Approx(kGigabit).epsilon(0.03));
  }
  SECTION("an overlap slowing only the smaller probe cannot read above window / RTT") {
    std::vector<ProbeSample> samples;
    const PathEstimate path = run_meter(
        c, rtt,
        [&](std::uint64_t b, std::uint64_t w, int probe) {
          return probe % 2 == 1 ? clean(b, w) + 40 * kNsPerMs : clean(b, w);
        },
        &samples);
    double ceiling = 0;
    for (const ProbeSample& s : samples)
      ceiling = std::max(ceiling, static_cast<double>(s.window) / 0.033);
    CHECK(path.bytes_per_second <= ceiling);
  }
  SECTION("an overlap on every probe: the meter decides on the highest reading") {
    const PathEstimate path =
        run_meter(c, rtt, [&](std::uint64_t b, std::uint64_t w, int) { return halved(b, w); });
    CHECK(path.bytes_per_second == Approx(kGigabit / 2).epsilon(0.03));
  }
}

TEST_CASE("path meter: failed probes and a zero RTT", "[window]") {
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
  // No round trip to divide by: no window can hold the path back, one pair decides.
  PathMeter zero(c, 0);
  zero.measured(zero.next_bytes(), 100 * kNsPerMs);
  CHECK(zero.next_window() == c.min_bytes);
  zero.measured(zero.next_bytes(), 100 * kNsPerMs);
  zero.measured(zero.next_bytes(), 180 * kNsPerMs);
  CHECK(zero.done());
}

TEST_CASE("path meter: the rate between two probes", "[window]") {
  CHECK(*difference_rate({1000, 10 * kNsPerMs}, {3000, 12 * kNsPerMs}) == Approx(1e6));
  CHECK_FALSE(difference_rate({1000, 10 * kNsPerMs}, {3000, 10 * kNsPerMs}));
  CHECK_FALSE(difference_rate({3000, 10 * kNsPerMs}, {1000, 12 * kNsPerMs}));
}

TEST_CASE("path meter: the first pair's window follows the scout", "[window]") {
  const WindowConfig c = auto_config();
  PathMeter meter(c, 10 * kNsPerMs);
  CHECK(meter.next_window() == c.max_bytes);  // the scout: its size bounds its flight
  // 8 MiB at 0.5 Gbit/s (slow start): the first pair holds 4 x 625 KB.
  meter.measured(8u << 20, static_cast<TimeNs>(8388608 / 62.5e6 * 1e9) + 5 * kNsPerMs);
  CHECK(meter.next_window() == 2502656);  // 4 x 62.5e6 x 10 ms, rounded up to 4 KiB
  CHECK(meter.next_bytes() == 8u << 20);  // at least the scout's size
  PathMeter lan(c, 50 * kNsPerUs);
  lan.measured(8u << 20, 100 * kNsPerMs);
  CHECK(lan.next_window() == c.min_bytes);
}
