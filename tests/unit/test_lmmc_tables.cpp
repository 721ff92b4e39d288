// LMMC tables (model/lmmc/tables.hpp) and messages (messages.hpp): the page, frame and port
// tables move together, check_consistency finds each broken invariant, and every message
// round-trips or is rejected with a reason.
#include <catch2/catch.hpp>

#include <functional>

#include "tsunagi/model/lmmc/messages.hpp"
#include "tsunagi/model/lmmc/tables.hpp"

using namespace tsunagi::lmmc;

namespace {

// Two frames; ports 7 and 9; port 7 shared by process 0 (page 0) and process 1 (page 3).
LinkTables two_sharers() {
  LinkTables t(2);
  REQUIRE(t.open_port(7).empty());
  REQUIRE(t.open_port(9).empty());
  REQUIRE(t.map(0, 0, 7).empty());
  REQUIRE(t.map(1, 3, 7).empty());
  REQUIRE(t.map(0, 1, 9).empty());
  return t;
}

}  // namespace

TEST_CASE("lmmc tables: a non-resident entry keeps the port id, page-in and page-out move all") {
  LinkTables t = two_sharers();
  CHECK(t.check_consistency().empty());
  CHECK(*t.entry(1, 3) == PageEntry{false, 7, false});  // the port id stands in for the frame
  CHECK(t.port_of(*t.entry(1, 3)) == 7);
  CHECK(t.free_frame() == FrameIndex{0});

  t.assign(1, 7);  // both sharers become valid at once
  CHECK(*t.entry(0, 0) == PageEntry{true, 1, false});
  CHECK(*t.entry(1, 3) == PageEntry{true, 1, false});
  CHECK(t.port_of(*t.entry(0, 0)) == 7);
  CHECK(t.frame_of(7) == FrameIndex{1});
  CHECK(t.free_frame() == FrameIndex{0});
  CHECK(t.check_consistency().empty());

  REQUIRE(t.map(2, 0, 7).empty());  // a late sharer of a resident port starts valid
  CHECK(t.entry(2, 0)->valid);

  CHECK(t.release(1) == 7);
  for (auto [proc, page] : {std::pair{0, 0u}, {1, 3u}, {2, 0u}})
    CHECK(*t.entry(proc, page) == PageEntry{false, 7, false});
  CHECK(t.release(1) == kNoPort);  // a free frame has nothing to give
  CHECK(t.check_consistency().empty());

  CHECK(t.touch(0, 0));
  CHECK_FALSE(t.touch(0, 0));  // the first-touch cost is paid once
  CHECK_FALSE(t.touch(5, 5));
}

TEST_CASE("lmmc tables: ports are positive, opened once, mapped once per page") {
  LinkTables t(1);
  CHECK(t.open_port(0) == "port id 0 is not a port (ids are positive)");
  CHECK(t.open_port(4).empty());
  CHECK(t.open_port(4) == "port 4 is already open");
  CHECK(t.map(0, 0, 5) == "port 5 is not open");
  CHECK(t.map(0, 0, 4).empty());
  CHECK(t.map(0, 0, 4) == "process 0 page 0 is already mapped");
  CHECK_THROWS(LinkTables(0));
  CHECK_THROWS(LinkTables(LinkConfig::kMaxFrames + 1));
}

TEST_CASE("lmmc tables: check_consistency names the first broken invariant") {
  using Breaker = std::function<void(LinkTables&)>;
  const std::vector<std::pair<Breaker, std::string>> cases = {
      {[](LinkTables& t) { t.frame_table[0] = 8; }, "frame 0 holds port 8, not open"},
      {[](LinkTables& t) {
         t.frame_table = {9, 9};
       },
       "port 9 is resident in two frames (one is frame 1)"},
      {[](LinkTables& t) {
         t.port_table[9].push_back({4, 4});
       },
       "port 9 lists process 4 page 4, which is not mapped"},
      {[](LinkTables& t) {
         t.port_table[9].push_back({0, 1});
       },
       "port 9 lists process 0 page 1 twice"},
      {[](LinkTables& t) {
         t.page_tables[0][1] = {false, 7, false};
       },
       "process 0 page 1 is not listed under its port 7"},
      {[](LinkTables& t) {
         t.port_table[9].push_back({0, 0});
       },
       "process 0 page 0 is listed under port 9 but leads to 7"},
      {[](LinkTables& t) {
         t.page_tables[3][3] = {false, 9, false};
       },
       "process 3 page 3 is not listed under its port 9"},
      {[](LinkTables& t) { t.frame_table[0] = 9; },  // resident, but its sharers still invalid
       "process 0 page 1 is invalid but its port 9 is resident"},
      {[](LinkTables& t) {
         t.page_tables[0][0] = {true, 5, false};
       },
       "process 0 page 0 is valid with frame 5, out of range"},
      {[](LinkTables& t) {
         t.page_tables[0][0] = {true, 1, false};
       },
       "process 0 page 0 is valid but its frame is free"},
      {[](LinkTables& t) { t.port_table[0]; }, "the port table holds port id 0"},
  };
  for (const auto& [breaker, expected] : cases) {
    LinkTables t = two_sharers();
    breaker(t);
    INFO(expected);
    CHECK(t.check_consistency() == expected);
  }
}

TEST_CASE("lmmc messages: every message round-trips with its documented length") {
  const LinkConfig config;  // 4 frames of 4096 bytes
  const std::vector<std::pair<Message, std::size_t>> cases = {
      {PagingRequest{5, 3, 77}, 11},
      {PagingRequest{0, 0, kNoPort}, 11},  // an explicit page-out
      {RemoteWrite{9, 2, Bytes{1, 2, 3}}, 14},
      {RemoteWrite{9, 0, Bytes(4096, 0xAB)}, 4107},
      {Credit{9, 4096}, 9},
  };
  for (const auto& [message, length] : cases) {
    const Bytes bytes = encode(message);
    CHECK(bytes.size() == length);
    std::string error;
    const auto decoded = decode(bytes, config, error);
    REQUIRE(decoded.has_value());
    CHECK(error.empty());
    CHECK(*decoded == message);
  }
}

TEST_CASE("lmmc messages: malformed packets are rejected with a reason") {
  const LinkConfig config;
  Bytes long_request = encode(PagingRequest{1, 1, 1});
  long_request.push_back(0);
  Bytes short_write = encode(RemoteWrite{1, 1, Bytes{1, 2}});
  short_write.pop_back();
  const std::vector<std::pair<Bytes, std::string>> cases = {
      {Bytes{}, "empty message"},
      {Bytes{9}, "unknown message type 9"},
      {Bytes(10, 1), "paging request of 10 bytes, expected 11"},
      {long_request, "paging request of 12 bytes, expected 11"},
      {encode(PagingRequest{1, 4, 1}), "frame 4 out of range (4 frames)"},
      {Bytes{2, 1, 0}, "remote write of 3 bytes, expected 11"},
      {short_write, "remote write of 12 bytes, expected 13"},
      {encode(RemoteWrite{0, 1, Bytes{1}}), "remote write to port id 0"},
      {encode(RemoteWrite{3, 1, Bytes{}}), "remote write of 0 bytes"},
      {encode(RemoteWrite{3, 1, Bytes(4097, 0)}), "remote write of 4097 bytes, more than a page"},
      {encode(RemoteWrite{3, 60000, Bytes{1}}), "frame 60000 out of range (4 frames)"},
      {encode(Credit{0, 5}), "credit for port id 0"},
      {encode(Credit{2, 0}), "credit of 0 bytes"},
      {Bytes{3, 1, 0, 0, 0}, "credit of 5 bytes, expected 9"},
  };
  for (const auto& [bytes, expected] : cases) {
    std::string error;
    CHECK_FALSE(decode(bytes, config, error).has_value());
    CHECK(error == expected);
  }
}
