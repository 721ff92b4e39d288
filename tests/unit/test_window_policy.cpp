// TCP windows as a core decision (issue 15) and paper 004's link indices: tables of edge cases
// and the invariants that hold for any measured path.
#include <catch2/catch.hpp>

#include "tsunagi/model/window/window_policy.hpp"
#include "tsunagi/model/workload/link_indices.hpp"

using namespace tsunagi;

TEST_CASE("window: auto sizes headroom x bandwidth-delay product", "[window]") {
  WindowConfig c;
  c.mode = WindowMode::Auto;
  struct Row {
    TimeNs rtt;
    double rate;
    std::uint64_t bytes;
  };
  const std::vector<Row> rows{
      {42 * kNsPerMs, 125e6, 6565888},  // 1 Gbit/s x 42 ms x 1.25, rounded up to 4 KiB
      {10 * kNsPerMs, 125e6, 1564672},
      {100 * kNsPerUs, 125e6, 65536},       // a LAN: the floor
      {200 * kNsPerMs, 1.25e9, 32u << 20},  // beyond the ceiling
      {0, 0, 65536},
  };
  for (const Row& row : rows) {
    CAPTURE(row.rtt, row.rate);
    CHECK(auto_window(c, {row.rtt, row.rate}) == row.bytes);
  }
}

TEST_CASE("window: auto stays within its bounds and grows with the path", "[window][property]") {
  WindowConfig c;
  c.mode = WindowMode::Auto;
  std::uint64_t previous = 0;
  for (TimeNs rtt = 0; rtt <= 400 * kNsPerMs; rtt += 7 * kNsPerMs) {
    const std::uint64_t w = auto_window(c, {rtt, 125e6});
    CHECK(w >= c.min_bytes);
    CHECK(w <= c.max_bytes);
    CHECK(w % 4096 == 0);
    CHECK(w >= previous);
    previous = w;
  }
}

TEST_CASE("window: the mode decides who sets the buffers", "[window]") {
  WindowConfig c;
  const PathEstimate path{42 * kNsPerMs, 125e6};
  CHECK_FALSE(choose_window(c, path));  // default: the host stack's
  c.mode = WindowMode::Fixed;
  c.bytes = 1u << 20;
  CHECK(choose_window(c, std::nullopt) == WindowChoice{1u << 20, 1u << 20});
  c.mode = WindowMode::Auto;
  CHECK_FALSE(choose_window(c, std::nullopt));  // not measured: left to the stack
  CHECK(choose_window(c, path) == WindowChoice{6565888, 6565888});
}

TEST_CASE("window: a probe's rate leaves out the first byte's flight", "[window]") {
  // 8 MiB in 88 ms over 42 ms RTT: 67 ms of sending.
  CHECK(probe_rate(8u << 20, 88 * kNsPerMs, 42 * kNsPerMs) == Approx(8388608.0 / 0.067));
  // A bogus RTT longer than the transfer cannot more than double the rate.
  CHECK(probe_rate(1000, 10 * kNsPerMs, 1 * kNsPerSec) == Approx(1000 / 0.005));
  CHECK(probe_rate(1000, 0, 0) == 0);
}

TEST_CASE("indices: paper 004's definitions", "[indices]") {
  PairMeasurement m;
  m.tcp_bytes_per_second = 11.125e6;  // 89 Mbit/s: TCP = 0.089 of 1 Gbit/s
  m.sizes = {{64, 10 * kNsPerMs, 17 * kNsPerMs},
             {65536, 13 * kNsPerMs, 17 * kNsPerMs},
             {8u << 20, 800 * kNsPerMs, 0}};
  const LinkIndices x = link_indices(m, 125e6);
  CHECK(x.tcp == Approx(0.089));
  CHECK(*x.oh_64b == Approx(8.5 / 10));
  CHECK(*x.oh_64kb == Approx(8.5 / 13));
  CHECK(*x.bw_64kb == Approx((65536 / 0.013) / 11.125e6));
  CHECK(*x.bw_8mb == Approx((8388608 / 0.8) / 11.125e6));
  CHECK(*x.mbps_8mb == Approx(8388608 / 0.8 / 1e6));
}

TEST_CASE("indices: what was not measured stays empty", "[indices]") {
  PairMeasurement m;
  m.sizes = {{64, 0, 0}, {65536, 5 * kNsPerMs, 0}};
  const LinkIndices x = link_indices(m, 125e6);
  CHECK(x.tcp == 0);
  CHECK_FALSE(x.oh_64b);   // no message time
  CHECK_FALSE(x.oh_64kb);  // no raw RTT
  CHECK_FALSE(x.bw_64kb);  // no TCP bandwidth
  CHECK_FALSE(x.bw_8mb);   // size not measured
  CHECK_FALSE(x.mbps_8mb);
  CHECK_FALSE(x.bw_train);  // no train
  CHECK_FALSE(message_rate(100, 0));
}

TEST_CASE("indices: a train's bandwidth is shared by the TCP bandwidth", "[indices]") {
  PairMeasurement m;
  m.sizes = {{8u << 20, 88 * kNsPerMs, 0}};
  m.train_message_bytes = 8u << 20;
  m.train_bytes_per_second = 122e6;
  CHECK_FALSE(link_indices(m, 125e6).bw_train);  // no TCP bandwidth to divide by
  m.tcp_bytes_per_second = 124e6;
  const LinkIndices x = link_indices(m, 125e6);
  CHECK(*x.bw_train == Approx(122.0 / 124));
  // The ping-pong's share of the same link stays what its own time says.
  CHECK(*x.bw_8mb == Approx((8388608 / 0.088) / 124e6));
}
