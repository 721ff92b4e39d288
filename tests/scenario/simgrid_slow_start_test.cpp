// TCP slow start for the flow model (sim/simgrid/src/slow_start.hpp), on tables: the rounds a
// message waits, the window it leaves, and the rate cap that makes a flow that much later.
#include <catch2/catch.hpp>
#include <cstdint>

#include "slow_start.hpp"

using namespace tsunagi;
using namespace tsunagi::sim::simgrid;

namespace {
constexpr TimeNs kRtt = 11'000'000;  // 11 ms
constexpr double kGigabit = 125e6;   // bytes/s
constexpr std::uint64_t kIw = kInitialWindowBytes;

TimeNs wait_of(std::uint64_t window) {  // one full round of `window` bytes at 1 Gbit/s
  return kRtt - static_cast<TimeNs>(static_cast<double>(window) / kGigabit * 1e9);
}
}  // namespace

TEST_CASE("slow start: a message inside the window waits nothing", "[slow_start]") {
  const auto bytes = GENERATE(std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{1000}, kIw);
  const SlowStartCost cost = slow_start_cost(kIw, bytes, kRtt, kGigabit);
  CHECK(cost.waiting == 0);
  // The window grows only by a round that used at least half of it.
  CHECK(cost.window == (bytes * 2 >= kIw ? kIw + bytes : kIw));
}

TEST_CASE("slow start: 64 KiB on a fresh connection, then again, then again", "[slow_start]") {
  const std::uint64_t message = 65536 + 40;
  // Fresh: rounds of 1, 2 windows full (each waits for its ACKs), the rest in the third.
  SlowStartCost first = slow_start_cost(kIw, message, kRtt, kGigabit);
  CHECK(first.waiting == wait_of(kIw) + wait_of(2 * kIw));
  // The third round carried 65,576 - 43,440 = 22,136 bytes of a 57,920-byte window; the
  // message was window-limited, so its ACKs grow the window by that much too.
  CHECK(first.window == 4 * kIw + (message - 3 * kIw));
  // From then on the message fits: nothing waits, and a round under half the window adds nothing.
  const SlowStartCost second = slow_start_cost(first.window, message, kRtt, kGigabit);
  CHECK(second.waiting == 0);
  CHECK(second.window == first.window + message);  // 65,576 is more than half of 79,616
  const SlowStartCost small = slow_start_cost(first.window, 1000, kRtt, kGigabit);
  CHECK(small.window == first.window);
  // A window one byte short of the message: one round waits, then everything fits.
  const SlowStartCost short_by_one = slow_start_cost(message - 1, message, kRtt, kGigabit);
  CHECK(short_by_one.waiting == wait_of(message - 1));
  CHECK(short_by_one.window == 2 * (message - 1) + 1);
}

TEST_CASE("slow start: a window of a bandwidth-delay product waits nothing", "[slow_start]") {
  // 1 Gbit/s x 11 ms = 1,375,000 bytes: rounds of at least that much are never ACK-bound.
  const SlowStartCost cost = slow_start_cost(1'375'000, 64 << 20, kRtt, kGigabit);
  CHECK(cost.waiting == 0);
  CHECK(cost.window >= std::uint64_t{64} << 20);
  // A fresh window pays only the rounds below it: 14,480 .. 1,158,400 bytes, 7 rounds.
  const SlowStartCost fresh = slow_start_cost(kIw, 64 << 20, kRtt, kGigabit);
  TimeNs expected = 0;
  for (std::uint64_t w = kIw; w < 1'375'000; w *= 2) expected += wait_of(w);
  CHECK(fresh.waiting == expected);
}

TEST_CASE("slow start: the window never passes its ceiling, nor waits without a rate",
          "[slow_start]") {
  const SlowStartCost huge = slow_start_cost(kWindowCeilingBytes, UINT64_MAX, kRtt, 0);
  CHECK(huge.window == kWindowCeilingBytes);
  // No rate known: every full round waits the whole round trip.
  const SlowStartCost blind = slow_start_cost(kIw, 3 * kIw, kRtt, 0);
  CHECK(blind.waiting == kRtt);
  CHECK(slow_start_cost(0, 10, kRtt, kGigabit).window >= 1);  // a zero window cannot spin
}

TEST_CASE("slow start: the rate cap makes a lone flow exactly that much later", "[slow_start]") {
  const std::uint64_t bytes = GENERATE(std::uint64_t{65576}, std::uint64_t{4} << 20);
  const TimeNs waiting = GENERATE(TimeNs{1}, TimeNs{10'000'000});
  const double cap = slow_start_rate(bytes, kGigabit, waiting);
  REQUIRE(cap > 0);
  CHECK(cap < kGigabit);
  const double late_ns =
      static_cast<double>(bytes) / cap * 1e9 - static_cast<double>(bytes) / kGigabit * 1e9;
  CHECK(late_ns == Approx(static_cast<double>(waiting)).margin(1e-3));
  CHECK(slow_start_rate(bytes, kGigabit, 0) == 0);
  CHECK(slow_start_rate(0, kGigabit, waiting) == 0);
}
