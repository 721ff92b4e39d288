// Frames of the relay overlay: round trips, and rejections of what a relay must not believe.
#include <catch2/catch.hpp>

#include "tsunagi/model/codec.hpp"
#include "tsunagi/model/messages.hpp"

using namespace tsunagi;
using namespace tsunagi::wire;

namespace {

Frame through_bytes(const Frame& f) {
  return std::get<Frame>(decode_one(encode(f)));
}

template <class T>
std::string error_of(const Decoded<T>& decoded) {
  auto* e = std::get_if<DecodeError>(&decoded);
  return e ? e->reason : "";
}

Frame with_payload(FrameType type, Bytes payload) {
  Frame f;
  f.type = type;
  f.payload = std::move(payload);
  return f;
}

}  // namespace

TEST_CASE("relay frames round trip", "[wire][relay]") {
  auto reg = read_relay_register(
      through_bytes(make_relay_register({{"chiba-relay0", "chiba", "10.0.0.9:7"}})));
  REQUIRE(error_of(reg).empty());
  CHECK(std::get<RelayRegisterMsg>(reg).relay.site == "chiba");

  RelayListMsg list{{{"a-relay0", "a", "e1"}, {"b-gw0", "b", "e2"}}, {0, 1, 2, 7}};
  auto got = read_relay_list(through_bytes(make_relay_list(list)));
  REQUIRE(error_of(got).empty());
  CHECK(std::get<RelayListMsg>(got).relays.size() == 2);
  CHECK(std::get<RelayListMsg>(got).relays[1].label == "b-gw0");
  CHECK(std::get<RelayListMsg>(got).expected == std::vector<Rank>{0, 1, 2, 7});

  auto hello = read_relay_hello(through_bytes(make_relay_hello({"kyoto-gw0"})));
  CHECK(std::get<RelayHelloMsg>(hello).label == "kyoto-gw0");

  LinkAdvertMsg advert{"a-relay0", 42, true, {"b-relay0", "c-relay0"}, {3, 4, 5, 9}};
  auto adv = read_link_advert(through_bytes(make_link_advert(advert)));
  REQUIRE(error_of(adv).empty());
  const auto& a = std::get<LinkAdvertMsg>(adv);
  CHECK(a.seq == 42);
  CHECK(a.settled);
  CHECK(a.neighbours == advert.neighbours);
  CHECK(a.ranks == advert.ranks);

  const Frame notice = through_bytes(make_undeliverable(9, 2, {1, 77, "no relay path"}));
  CHECK(notice.src == 9);
  CHECK(notice.dst == 2);
  auto und = read_undeliverable(notice);
  CHECK(std::get<UndeliverableMsg>(und).reason == "no relay path");
  CHECK(std::get<UndeliverableMsg>(und).seq == 77);
}

TEST_CASE("relay frames reject malformed payloads with a reason", "[wire][relay]") {
  // A relay without a label or endpoint could never be told apart or reached.
  CHECK_THAT(error_of(read_relay_register(make_relay_register({{"", "a", "e"}}))),
             Catch::Contains("without a label"));
  CHECK_THAT(error_of(read_relay_register(make_relay_register({{"r", "a", ""}}))),
             Catch::Contains("without an endpoint"));
  // A count the payload cannot hold is refused before anything is allocated.
  Writer w;
  w.u32(1'000'000);
  CHECK_THAT(error_of(read_relay_list(with_payload(FrameType::RelayList, w.take()))),
             Catch::Contains("implausible relay count"));
  // The settled flag is a boolean.
  Frame advert = make_link_advert({"a", 1, false, {}, {}});
  advert.payload[4 + 1 + 8] = 2;  // after the origin string (4 + 1 bytes) and the sequence
  CHECK_THAT(error_of(read_link_advert(advert)), Catch::Contains("settled flag 2"));
  // Truncated anywhere: refused, never read past the end.
  const Frame full = make_link_advert({"a-relay0", 3, true, {"b"}, {1, 2}});
  for (std::size_t cut = 0; cut < full.payload.size(); ++cut) {
    Frame f = full;
    f.payload.resize(cut);
    CHECK_FALSE(error_of(read_link_advert(f)).empty());
  }
  // A notice must name the rank it goes back to.
  CHECK_THAT(error_of(read_undeliverable(make_undeliverable(1, -1, {1, 1, "x"}))),
             Catch::Contains("undeliverable notice for rank"));
}
