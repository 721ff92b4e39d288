// Units in scenario files: bandwidths to bytes/s, durations to integer nanoseconds.
#include <catch2/catch.hpp>

#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;

TEST_CASE("bandwidth units convert to bytes per second", "[scenario][units]") {
  struct Row {
    const char* text;
    double bytes_per_s;
  };
  const Row rows[] = {
      {"8bps", 1},        {"1Kbps", 125},   {"1Mbps", 125e3}, {"1Gbps", 125e6},
      {"10Gbps", 1.25e9}, {"1Tbps", 125e9}, {"1Bps", 1},      {"1KBps", 1e3},
      {"1MBps", 1e6},     {"10GBps", 1e10}, {"2TBps", 2e12},  {"1.5Gbps", 187.5e6},
      {"1e9bps", 125e6},  {"125e6", 125e6}, {"42", 42},       {" 1 Gbps ", 125e6},
  };
  for (const Row& row : rows) {
    INFO(row.text);
    auto value = parse_bandwidth(row.text);
    REQUIRE(value);
    CHECK(*value == Approx(row.bytes_per_s));
  }
}

TEST_CASE("bad bandwidths are refused", "[scenario][units]") {
  for (const char* text : {"", "Gbps", "1gbps", "1GBPS", "1 Gbit/s", "10Gbs", "0Gbps", "-1Gbps",
                           "0", "inf", "nan", "1e400bps", "fast", "1Gbps x", "+1Gbps"}) {
    INFO(text);
    CHECK_FALSE(parse_bandwidth(text));
  }
}

TEST_CASE("duration units convert to integer nanoseconds", "[scenario][units]") {
  struct Row {
    const char* text;
    TimeNs ns;
  };
  const Row rows[] = {
      {"0us", 0},
      {"0s", 0},
      {"20ns", 20},
      {"5us", 5'000},
      {"5\xC2\xB5s", 5'000},
      {"0.5ms", 500'000},
      {"3s", 3'000'000'000},
      {"1.5us", 1'500},
      {"0.4ns", 0},
      {"0.6ns", 1},
      {"2 ms", 2'000'000},
      {"1e-6s", 1'000},
  };
  for (const Row& row : rows) {
    INFO(row.text);
    auto value = parse_duration(row.text);
    REQUIRE(value);
    CHECK(*value == row.ns);
  }
}

TEST_CASE("bad durations are refused", "[scenario][units]") {
  // A bare number is refused on purpose: seconds or nanoseconds would both be plausible.
  for (const char* text :
       {"", "5", "us", "-5us", "5 sec", "5min", "5US", "5 u s", "inf s", "1e300s", "five us"}) {
    INFO(text);
    CHECK_FALSE(parse_duration(text));
  }
}
