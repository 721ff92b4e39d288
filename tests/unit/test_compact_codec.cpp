// The compact codings that keep the rendezvous's one link from carrying 12 bytes per RTT at
// scale (issue 30): varints, delta-coded RTT columns, runs of equal values, and the frames that
// use them (rtt_order, rtt_column, a leader's next hops). Round trips on tables with edge cases
// and random lists, sizes, and every way a hostile payload may be refused.
#include <climits>
#include <cstdint>
#include <limits>

#include <catch2/catch.hpp>

#include "tsunagi/model/codec.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/rng.hpp"
#include "tsunagi/model/wire.hpp"

using namespace tsunagi;
using namespace tsunagi::wire;

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::vector<std::uint64_t> round_trip_deltas(const std::vector<std::uint64_t>& values) {
  Writer w;
  w.u64_deltas(values);
  const Bytes bytes = w.take();
  Reader r(bytes);
  auto back = r.u64_deltas(values.size());
  REQUIRE(r.finish("deltas"));
  return back;
}

std::pair<bool, std::string> read_varint(const Bytes& bytes) {
  Reader r(bytes);
  (void)r.varint();
  return {r.finish("varint"), r.error()};
}

template <class Msg>
Msg decoded(const Decoded<Msg>& d) {
  if (const auto* e = std::get_if<DecodeError>(&d)) FAIL(e->reason);
  return std::get<Msg>(d);
}

Frame round_trip(const Frame& f) {
  return std::get<Frame>(decode_one(encode(f)));
}

}  // namespace

TEST_CASE("varints: sizes at every 7-bit edge, and the value back", "[wire][compact]") {
  const std::vector<std::pair<std::uint64_t, std::size_t>> table = {
      {0, 1},           {1, 1},
      {127, 1},         {128, 2},
      {16383, 2},       {16384, 3},
      {1ull << 35, 6},  {(1ull << 56) - 1, 8},
      {1ull << 56, 9},  {(1ull << 63) - 1, 9},
      {1ull << 63, 10}, {kMax, 10}};
  for (const auto& [value, size] : table) {
    Writer w;
    w.varint(value);
    const Bytes bytes = w.take();
    CHECK(bytes.size() == size);
    Reader r(bytes);
    CHECK(r.varint() == value);
    CHECK(r.finish("varint"));
  }
}

TEST_CASE("varints: truncated, too long and padded codes are refused with a reason",
          "[wire][compact]") {
  CHECK_THAT(read_varint({0x80}).second, Catch::Contains("u8"));
  CHECK_THAT(read_varint({0x80, 0x80}).second, Catch::Contains("u8"));
  // Eleven bytes, or a tenth byte above 1: more than 64 bits.
  CHECK_THAT(read_varint(Bytes(10, 0xff)).second, Catch::Contains("longer than 64 bits"));
  Bytes ten(9, 0xff);
  ten.push_back(0x02);
  CHECK_THAT(read_varint(ten).second, Catch::Contains("longer than 64 bits"));
  ten.back() = 0x01;
  CHECK(read_varint(ten).first);
  CHECK_THAT(read_varint({0x81, 0x00}).second, Catch::Contains("shortest form"));
  CHECK_THAT(read_varint({0x80, 0x80, 0x00}).second, Catch::Contains("shortest form"));
}

TEST_CASE("delta-coded values round-trip any list, extremes and wrap-arounds included",
          "[wire][compact]") {
  const std::vector<std::vector<std::uint64_t>> table = {
      {},
      {0},
      {kMax},
      {0, kMax, 0, kMax},
      {kMax, 0, 1, kMax - 1},
      {1ull << 63, (1ull << 63) - 1, 1ull << 63},
      {50'000, 50'000, 50'000, 120'000, 120'000, 0, 50'001}};
  for (const auto& values : table) CHECK(round_trip_deltas(values) == values);
  Rng rng(30);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::uint64_t> values;
    const auto n = rng.uniform(80);
    for (std::uint64_t i = 0; i < n; ++i) {
      // RTT-like rows with noise, failed probes (0) and now and then any 64-bit value.
      const auto pick = rng.uniform(10);
      values.push_back(pick == 0   ? 0
                       : pick == 1 ? rng.next()
                                   : 40'000 + rng.uniform(3) * 30'000 + rng.uniform(500));
    }
    CHECK(round_trip_deltas(values) == values);
  }
}

TEST_CASE("a row of equal RTTs costs a byte each, noisy microsecond RTTs at most three",
          "[wire][compact]") {
  Writer flat;
  flat.u64_deltas(std::vector<std::uint64_t>(600, 47'000));
  CHECK(flat.take().size() == 3 + 599);  // the first value in full, then a zero step each
  Writer noisy;
  Rng rng(5);
  std::vector<std::uint64_t> row;
  for (int i = 0; i < 600; ++i) row.push_back(40'000 + rng.uniform(60'000));
  noisy.u64_deltas(row);
  CHECK(noisy.take().size() <= 3 * 600);
}

TEST_CASE("delta-coded values: more values than bytes are refused before allocating",
          "[wire][compact]") {
  Writer w;
  w.u64_deltas({1, 2, 3});
  const Bytes bytes = w.take();
  Reader r(bytes);
  CHECK(r.u64_deltas(1'000'000).empty());
  CHECK_THAT(r.error(), Catch::Contains("cannot fit"));
  Reader short_read(bytes);
  CHECK(short_read.u64_deltas(2).size() == 2);
  CHECK_FALSE(short_read.finish("deltas"));  // one value left over
}

TEST_CASE("runs of equal values round-trip and refuse empty, oversized and truncated runs",
          "[wire][compact]") {
  const std::vector<std::vector<std::int32_t>> table = {
      {}, {5}, {7, 7, 7, 9, 9, 7}, {INT32_MIN, INT32_MIN, INT32_MAX}, {-1, -1, 0, 0, 1}};
  for (const auto& list : table) {
    Writer w;
    w.i32_repeats(list);
    const Bytes bytes = w.take();
    Reader r(bytes);
    CHECK(r.i32_repeats(100) == list);
    CHECK(r.finish("repeats"));
  }
  Writer subtree;
  subtree.i32_repeats(std::vector<std::int32_t>(25'000, 400));
  CHECK(subtree.take().size() == 4 + 8);
  auto payload = [](std::int32_t value, std::uint32_t length) {
    Writer w;
    w.u32(1);
    w.i32(value);
    w.u32(length);
    return w.take();
  };
  auto refusal = [](const Bytes& bytes, std::size_t max) {
    Reader r(bytes);
    CHECK(r.i32_repeats(max).empty());
    return r.error();
  };
  CHECK_THAT(refusal(payload(3, 0), 100), Catch::Contains("limit"));
  CHECK_THAT(refusal(payload(3, 101), 100), Catch::Contains("limit"));
  Bytes truncated = payload(3, 5);
  truncated.resize(truncated.size() - 2);
  CHECK_THAT(refusal(truncated, 100), Catch::Contains("does not fit"));
}

TEST_CASE("rtt_order and rtt_column: a window's order and row in a few bytes, decoded back",
          "[wire][compact]") {
  std::vector<Rank> window;
  for (Rank r = 4000; r < 4632; ++r) window.push_back(r);
  const Frame order = make_rtt_order({2, window});
  CHECK(order.payload.size() == 4 + 4 + 8);
  CHECK(decoded(read_rtt_order(round_trip(order))).targets == window);
  std::vector<std::uint64_t> rtts;
  for (std::size_t i = 0; i < window.size(); ++i) rtts.push_back(i < 40 ? 31'000 : 52'000);
  rtts[7] = 0;  // a failed probe
  const Frame column = make_rtt_column({2, window, rtts});
  CHECK(column.payload.size() < 4 + 12 + 3 * 4 + window.size());
  const RttColumnMsg back = decoded(read_rtt_column(round_trip(column)));
  CHECK(back.round == 2);
  CHECK(back.peers == window);
  CHECK(back.rtts == rtts);
}

TEST_CASE("rtt_column: peers without their RTTs, extra RTTs and huge runs are refused",
          "[wire][compact]") {
  auto reason = [](const Frame& f) {
    const auto d = read_rtt_column(round_trip(f));
    REQUIRE(std::holds_alternative<DecodeError>(d));
    return std::get<DecodeError>(d).reason;
  };
  CHECK_THAT(reason(make_rtt_column({1, {1, 2, 3}, {10, 20}})), Catch::Contains("fit"));
  CHECK_THAT(reason(make_rtt_column({1, {1, 2}, {10, 20, 30}})), Catch::Contains("trailing"));
  // One run claiming a million peers in 8 bytes: refused by the bytes present, not allocated.
  Writer w;
  w.u32(1);
  w.u32(1);
  w.i32(0);
  w.u32(1'000'000);
  Frame hostile;
  hostile.type = FrameType::RttColumn;
  hostile.payload = w.take();
  const auto d = read_rtt_column(hostile);
  REQUIRE(std::holds_alternative<DecodeError>(d));
  CHECK_THAT(std::get<DecodeError>(d).reason, Catch::Contains("limit"));
}

TEST_CASE("a leader's next hops cost one run per child subtree", "[wire][compact]") {
  LeaderLinks links;
  links.leader = 0;
  links.children = {40, 4000};
  for (Rank r = 40; r < 8000; ++r) {
    links.below.push_back(r);
    links.below_via.push_back(r < 4000 ? 40 : 4000);
  }
  const Frame f = make_groups({{{0, 1, 2}}, links});
  CHECK(f.payload.size() < 100);
  const GroupsMsgBody back = decoded(read_groups(round_trip(f)));
  REQUIRE(back.links);
  CHECK(*back.links == links);
}

TEST_CASE("front-coded strings round-trip, and consecutive endpoints cost a few bytes",
          "[wire][compact]") {
  const std::vector<std::vector<std::string>> table = {
      {},
      {"a"},
      {"", "", "x"},
      {"s.3.17-h08:0", "s.3.17-h09:0", "s.3.18-h00:0", "s.3.1", "s.3.17-h08:0"},
      {"10.77.0.5:41234", "10.77.0.6:38211", "10.77.0.60:1", "fe80::1:7000"},
      {std::string(256, 'z'), std::string(255, 'z'), std::string(256, 'y')}};
  for (const auto& strings : table) {
    Writer w;
    w.front_coded(strings);
    const Bytes bytes = w.take();
    Reader r(bytes);
    CHECK(r.front_coded(strings.size(), 256) == strings);
    CHECK(r.finish("front-coded"));
  }
  std::vector<std::string> leaf;
  for (int h = 0; h < 40; ++h) leaf.push_back("s.3.17-h" + std::to_string(10 + h) + ":0");
  Writer w;
  w.front_coded(leaf);
  CHECK(w.take().size() <= 2 + leaf[0].size() + 39 * 6);
}

TEST_CASE(
    "front-coded strings: a borrowed prefix too long, a string past the limit, too few "
    "bytes and a truncated rest are refused",
    "[wire][compact]") {
  auto refusal = [](const Bytes& bytes, std::size_t count) {
    Reader r(bytes);
    CHECK(r.front_coded(count, 16).empty());
    return r.error();
  };
  CHECK_THAT(refusal({0, 2, 'a', 'b', 3, 0}, 2), Catch::Contains("shares 3 bytes"));
  CHECK_THAT(refusal({1, 0}, 1), Catch::Contains("shares 1 bytes"));  // nothing to share yet
  CHECK_THAT(refusal({0, 17, 'a'}, 1), Catch::Contains("exceeds limit"));
  CHECK_THAT(refusal({0, 2, 'a', 'b', 2, 15}, 2), Catch::Contains("exceeds limit"));
  CHECK_THAT(refusal({0, 5, 'a', 'b'}, 1), Catch::Contains("truncated"));
  CHECK_THAT(refusal({0, 1, 'a'}, 1'000'000), Catch::Contains("cannot fit"));
}

TEST_CASE("endpoint replies: a leaf's endpoints front-coded, ranks as runs, decoded back",
          "[wire][compact][directory]") {
  EndpointReplyMsg reply;
  for (Rank r = 680; r < 720; ++r) {
    reply.ranks.push_back(r);
    reply.endpoints.push_back("s.1.17-h" + std::to_string(r - 680 + 10) + ":0");
  }
  const Frame f = make_endpoint_reply(reply);
  CHECK(f.payload.size() < 4 + 8 + 16 + 39 * 6);
  const EndpointReplyMsg back = decoded(read_endpoint_reply(round_trip(f)));
  CHECK(back.ranks == reply.ranks);
  CHECK(back.endpoints == reply.endpoints);
}
