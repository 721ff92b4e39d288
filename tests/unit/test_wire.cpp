// The wire format: round trips, and the decoder's rejections (truncated, oversized, unknown
// type, garbage), including a seeded fuzz loop that must never crash or accept junk silently.
#include <catch2/catch.hpp>

#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/rng.hpp"
#include "tsunagi/model/wire.hpp"

using namespace tsunagi;
using namespace tsunagi::wire;

namespace {

std::string decode_error(const Bytes& bytes) {
  auto r = decode_one(bytes, 1000);  // the sample frame declares 1000 bytes of filler
  auto* e = std::get_if<DecodeError>(&r);
  return e ? e->reason : "";
}

Bytes sample_data_frame() {
  return encode(make_data(3, 9, 77, {42, {1, 2, 3, 4}}, 1000));
}

}  // namespace

TEST_CASE("frame header round trip keeps every field", "[wire]") {
  Frame f = make_data(3, 9, 77, {42, {1, 2, 3}}, 5000);
  f.hops = 2;
  f.ttl = 7;
  Bytes bytes = encode(f);
  REQUIRE(bytes.size() == kHeaderSize + 4 + 3);
  auto r = decode_one(bytes, 5000);
  REQUIRE(std::holds_alternative<Frame>(r));
  const Frame& g = std::get<Frame>(r);
  CHECK(g.type == FrameType::Data);
  CHECK(g.src == 3);
  CHECK(g.dst == 9);
  CHECK(g.seq == 77);
  CHECK(g.hops == 2);
  CHECK(g.ttl == 7);
  CHECK(g.filler == 5000);
  auto data = read_data(g);
  REQUIRE(std::holds_alternative<DataMsg>(data));
  CHECK(std::get<DataMsg>(data).tag == 42);
  CHECK(std::get<DataMsg>(data).body == Bytes{1, 2, 3});
}

TEST_CASE("every message type round trips", "[wire]") {
  auto hello =
      read_hello(std::get<Frame>(decode_one(encode(make_hello({5, ConnPurpose::Shortcut})))));
  CHECK(std::get<HelloMsg>(hello).rank == 5);
  CHECK(std::get<HelloMsg>(hello).purpose == ConnPurpose::Shortcut);

  auto reg =
      read_register(std::get<Frame>(decode_one(encode(make_register({7, "h1:0", "h1", "chiba"})))));
  CHECK(std::get<RegisterMsg>(reg).endpoint == "h1:0");
  CHECK(std::get<RegisterMsg>(reg).site == "chiba");

  auto dir = read_directory(
      std::get<Frame>(decode_one(encode(make_directory({{"a:0", "b:1", ""}, {"a", "b", "c"}})))));
  CHECK(std::get<DirectoryMsg>(dir).endpoints == std::vector<std::string>{"a:0", "b:1", ""});
  CHECK(std::get<DirectoryMsg>(dir).hosts == std::vector<std::string>{"a", "b", "c"});

  auto rep =
      read_rtt_report(std::get<Frame>(decode_one(encode(make_rtt_report({4, {1, 2, 3}, 99})))));
  CHECK(std::get<RttReportMsg>(rep).near == std::vector<Rank>{1, 2, 3});
  CHECK(std::get<RttReportMsg>(rep).probes == 99);

  Groups groups{{0, 1}, {2}, {}};
  auto grp = read_groups(std::get<Frame>(decode_one(encode(make_groups({groups, std::nullopt})))));
  CHECK(std::get<GroupsMsgBody>(grp).groups == groups);

  RouteRoundMsg round{3, true, {{1, 2}, {9, 4}}};
  auto rr = read_route_round(std::get<Frame>(decode_one(encode(make_route_round(0, 1, round)))));
  REQUIRE(std::holds_alternative<RouteRoundMsg>(rr));
  CHECK(std::get<RouteRoundMsg>(rr).final);
  CHECK(std::get<RouteRoundMsg>(rr).entries[1].dest == 9);
  CHECK(std::get<RouteRoundMsg>(rr).entries[1].dist == 4);
}

TEST_CASE("throughput probe orders and results round trip and reject nonsense", "[wire]") {
  auto probe =
      read_probe_order(std::get<Frame>(decode_one(encode(make_probe_order({7, 3, 1000})))));
  REQUIRE(std::holds_alternative<ProbeOrderMsg>(probe));
  CHECK(std::get<ProbeOrderMsg>(probe).probe == 7);
  CHECK(std::get<ProbeOrderMsg>(probe).to == 3);
  CHECK(std::get<ProbeOrderMsg>(probe).bytes == 1000);
  auto result = read_probe_result(
      std::get<Frame>(decode_one(encode(make_probe_result({9, 1000, 12345, true})))));
  REQUIRE(std::holds_alternative<ProbeResultMsg>(result));
  CHECK(std::get<ProbeResultMsg>(result).elapsed == 12345);
  CHECK(std::get<ProbeResultMsg>(result).ok);
  auto empty = read_probe_order(std::get<Frame>(decode_one(encode(make_probe_order({1, 2, 0})))));
  REQUIRE(std::holds_alternative<DecodeError>(empty));
  CHECK_THAT(std::get<DecodeError>(empty).reason, Catch::Contains("0 bytes"));
  auto negative =
      read_probe_result(std::get<Frame>(decode_one(encode(make_probe_result({1, 10, -5, true})))));
  CHECK(std::holds_alternative<DecodeError>(negative));
  auto column = read_rtt_column(
      std::get<Frame>(decode_one(encode(make_rtt_column({3, {4, 5}, {1000, 2000}})))));
  REQUIRE(std::holds_alternative<RttColumnMsg>(column));
  CHECK(std::get<RttColumnMsg>(column).rtts == std::vector<std::uint64_t>{1000, 2000});
  auto order = read_rtt_order(std::get<Frame>(decode_one(encode(make_rtt_order({1, {7, -3}})))));
  REQUIRE(std::holds_alternative<DecodeError>(order));
  CHECK_THAT(std::get<DecodeError>(order).reason, Catch::Contains("rank out of range"));
}

TEST_CASE("decoder rejects malformed headers with a reason", "[wire]") {
  Bytes good = sample_data_frame();
  SECTION("truncated header") {
    Bytes b(good.begin(), good.begin() + 10);
    CHECK_THAT(decode_error(b), Catch::Contains("truncated"));
  }
  SECTION("truncated payload") {
    Bytes b(good.begin(), good.end() - 1);
    CHECK_THAT(decode_error(b), Catch::Contains("truncated"));
  }
  SECTION("garbage magic") {
    good[0] = 0x00;
    CHECK_THAT(decode_error(good), Catch::Contains("magic"));
  }
  SECTION("unknown version") {
    good[1] = 9;
    CHECK_THAT(decode_error(good), Catch::Contains("version"));
  }
  SECTION("unknown type") {
    good[2] = 200;
    CHECK_THAT(decode_error(good), Catch::Contains("unknown frame type 200"));
  }
  SECTION("unknown flags") {
    good[3] = 1;
    CHECK_THAT(decode_error(good), Catch::Contains("flags"));
  }
  SECTION("oversized payload length") {
    good[23] = 0x7f;  // length field high byte
    CHECK_THAT(decode_error(good), Catch::Contains("oversized"));
  }
  SECTION("bytes after the frame") {
    good.push_back(0);
    CHECK_THAT(decode_error(good), Catch::Contains("after the frame"));
  }
}

TEST_CASE("payload decoders reject truncated, oversized and trailing data", "[wire]") {
  Frame dir = make_directory({{"a:0", "b:1"}, {"a", "b"}});
  dir.payload.pop_back();
  CHECK(std::holds_alternative<DecodeError>(read_directory(dir)));

  Frame huge = make_directory({{}, {}});
  huge.payload = {0xff, 0xff, 0xff, 0x7f};  // two billion entries announced, none present
  auto r = read_directory(huge);
  REQUIRE(std::holds_alternative<DecodeError>(r));
  CHECK_THAT(std::get<DecodeError>(r).reason, Catch::Contains("does not fit"));

  Frame hello = make_hello({1, ConnPurpose::Static});
  hello.payload.push_back(0);
  CHECK_THAT(std::get<DecodeError>(read_hello(hello)).reason, Catch::Contains("trailing"));

  Frame bad_purpose = make_hello({1, ConnPurpose::Static});
  bad_purpose.payload[4] = 9;
  CHECK_THAT(std::get<DecodeError>(read_hello(bad_purpose)).reason, Catch::Contains("purpose"));

  Frame wrong = make_shutdown();
  CHECK(std::holds_alternative<DecodeError>(read_groups(wrong)));
}

TEST_CASE("deframer reassembles frames split and coalesced arbitrarily", "[wire]") {
  Bytes stream;
  std::vector<Frame> sent;
  for (int i = 0; i < 20; ++i) {
    Frame f = make_data(i, i + 1, static_cast<std::uint32_t>(i),
                        {7, Bytes(static_cast<std::size_t>(i * 13), 0xab)},
                        static_cast<std::uint64_t>(i % 3) * 10);
    sent.push_back(f);
    Bytes b = encode(f);
    stream.insert(stream.end(), b.begin(), b.end());
    stream.insert(stream.end(), f.filler, 0);  // a stream backend sends filler as zeros
  }
  Rng rng(7);
  Deframer d;
  std::vector<Frame> got;
  std::size_t pos = 0;
  while (pos < stream.size()) {
    std::size_t n = std::min<std::size_t>(stream.size() - pos, 1 + rng.uniform(90));
    d.feed(Bytes(stream.begin() + static_cast<std::ptrdiff_t>(pos),
                 stream.begin() + static_cast<std::ptrdiff_t>(pos + n)));
    pos += n;
    while (true) {
      auto next = d.next();
      if (std::holds_alternative<std::monostate>(next)) break;
      REQUIRE(std::holds_alternative<Frame>(next));
      got.push_back(std::get<Frame>(next));
    }
  }
  REQUIRE(got.size() == sent.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].seq == sent[i].seq);
    CHECK(got[i].payload == sent[i].payload);
  }
  CHECK(d.buffered() == 0);
}

TEST_CASE("deframer takes modelled filler as credit", "[wire]") {
  Deframer d;
  Frame f = make_data(0, 1, 0, {1, {}}, 8'000'000);
  d.feed(encode(f), 8'000'000);
  auto next = d.next();
  REQUIRE(std::holds_alternative<Frame>(next));
  CHECK(std::get<Frame>(next).filler == 8'000'000);
}

TEST_CASE("a failed stream stays failed", "[wire]") {
  Deframer d;
  d.feed(Bytes(kHeaderSize, 0xee));
  CHECK(std::holds_alternative<DecodeError>(d.next()));
  d.feed(sample_data_frame());
  CHECK(std::holds_alternative<DecodeError>(d.next()));
  CHECK(d.failed());
}

TEST_CASE("fuzz: random mutations never crash and errors always carry a reason", "[wire][fuzz]") {
  Rng rng(2026);
  Bytes base = sample_data_frame();
  int rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    Bytes b = base;
    int flips = 1 + static_cast<int>(rng.uniform(4));
    for (int k = 0; k < flips; ++k)
      b[rng.uniform(b.size())] = static_cast<std::uint8_t>(rng.uniform(256));
    if (rng.uniform(4) == 0) b.resize(rng.uniform(b.size() + 1));
    auto r = decode_one(b, 1000);
    if (auto* e = std::get_if<DecodeError>(&r)) {
      CHECK_FALSE(e->reason.empty());
      ++rejected;
    } else {
      // Anything accepted must decode consistently as its declared type.
      const Frame& f = std::get<Frame>(r);
      CHECK(static_cast<int>(f.type) >= 1);
      CHECK(static_cast<int>(f.type) <= static_cast<int>(kLastFrameType));
    }
  }
  CHECK(rejected > 1000);
}
