// LMMC remote write, local read and remote paging (model/lmmc/send_end.hpp, recv_end.hpp): the
// steps of paper 003 §2.3 at both ends, the costs of §4.4, flow control, and every message a
// well-behaved peer never sends rejected with a reason.
#include <catch2/catch.hpp>

#include "tsunagi/model/lmmc/link.hpp"

using namespace tsunagi;
using namespace tsunagi::lmmc;

namespace {

// Two frames, ports 1..3. Writer: process 0 maps ports 1, 2, 3 on pages 0, 1, 2; process 1
// shares port 1 on page 5. Reader: process 0 maps port 1 on page 0 and port 2 on page 1,
// process 1 shares port 1 on page 4 and maps port 3 on page 0.
Link make_link(PolicyKind policy = PolicyKind::Lru) {
  LinkConfig config;
  config.frames = 2;
  Link link(config, policy);
  REQUIRE(link.start({1, 2, 3}).empty());
  for (auto [proc, page, port] : {std::tuple{0, 0u, 1u}, {0, 1u, 2u}, {0, 2u, 3u}, {1, 5u, 1u}})
    REQUIRE(link.sender.map(proc, page, port).empty());
  for (auto [proc, page, port] : {std::tuple{0, 0u, 1u}, {0, 1u, 2u}, {1, 4u, 1u}, {1, 0u, 3u}})
    REQUIRE(link.receiver.map(proc, page, port).empty());
  return link;
}

// Writes and delivers; returns the writer's result, fails the test on any rejection.
WriteResult write(Link& link, ProcId proc, VPage page, Bytes data, TimeNs* reader_cost = nullptr) {
  WriteResult result = link.sender.write(proc, page, data);
  REQUIRE_FALSE(result.refused.has_value());
  TimeNs cost = 0;
  std::uint64_t saved = 0;
  REQUIRE(link.to_receiver(result.messages, cost, saved).empty());
  if (reader_cost) *reader_cost = cost;
  REQUIRE(link.check_consistency().empty());
  return result;
}

Message decoded(const Bytes& bytes) {
  std::string error;
  const auto message = decode(bytes, LinkConfig{}, error);
  REQUIRE(message.has_value());
  return *message;
}

}  // namespace

TEST_CASE("lmmc paging: a write to a non-resident port pages in at both ends, in order") {
  Link link = make_link();
  const WriteResult first = write(link, 0, 0, {10, 11});
  CHECK(first.fault);
  CHECK(first.paged_out == kNoPort);    // a free frame: nothing to page out
  REQUIRE(first.messages.size() == 2);  // the request travels before the write it serves
  CHECK(decoded(first.messages[0]) == Message{PagingRequest{0, 0, 1}});
  CHECK(decoded(first.messages[1]) == Message{RemoteWrite{1, 0, {10, 11}}});
  CHECK(link.sender.tables().entry(1, 5)->valid);  // the sharer's entry changed too (step 6)
  CHECK(link.receiver.tables().entry(1, 4)->valid);

  write(link, 0, 1, {20});  // port 2 -> frame 1
  write(link, 1, 5, {12});  // port 1 again: a hit, through the other sharer
  const WriteResult third = write(link, 0, 2, {30});  // port 3: LRU pages out port 2
  CHECK(third.paged_out == 2);
  CHECK(decoded(third.messages[0]) == Message{PagingRequest{2, 1, 3}});
  CHECK(*link.sender.tables().entry(0, 1) == PageEntry{false, 2, true});  // step 5: port id kept
  CHECK(*link.receiver.tables().entry(0, 1) == PageEntry{false, 2, false});
  CHECK(link.receiver.unread(2) == 1);  // receiver step 3: the unread byte went to memory

  const ReadResult from_store = link.receiver.read(0, 1, 100);  // a local read, no paging
  CHECK(from_store.from_store);
  CHECK(from_store.data == Bytes{20});
  REQUIRE(link.to_sender(from_store.messages).empty());
  const ReadResult shared = link.receiver.read(1, 4, 100);  // port 1, read by its sharer
  CHECK(shared.data == Bytes{10, 11, 12});
  REQUIRE(link.to_sender(shared.messages).empty());
  CHECK(link.check_consistency().empty());
}

TEST_CASE("lmmc paging: unread bytes survive a page-out and come back with the page-in") {
  Link link = make_link();
  write(link, 0, 0, {1, 2, 3});  // port 1
  write(link, 0, 1, {4});        // port 2
  write(link, 0, 2, {5});        // port 3 evicts port 1 (least recent), 3 bytes unread
  CHECK(link.receiver.unread(1) == 3);
  write(link, 0, 0, {6});  // port 1 comes back: its saved bytes first, then the new one
  const ReadResult r = link.receiver.read(0, 0, 10);
  CHECK_FALSE(r.from_store);
  CHECK(r.data == Bytes{1, 2, 3, 6});
}

TEST_CASE("lmmc paging: costs are the paper's, charged where they happen") {
  Link link = make_link();
  TimeNs reader = 0;
  const WriteResult first = write(link, 0, 0, {1}, &reader);
  CHECK(first.first_touch);
  CHECK(first.cost == (17 + 180 + 180) * kNsPerUs);  // routine + first touch + paging trap
  CHECK(reader == (180 + 20) * kNsPerUs);            // paging trap + write into link memory
  const WriteResult second = write(link, 0, 0, {1}, &reader);
  CHECK(second.cost == 17 * kNsPerUs);
  CHECK(reader == 20 * kNsPerUs);
  CHECK(write(link, 1, 5, {1}).cost == (17 + 180) * kNsPerUs);  // the sharer's first touch
  CHECK(link.receiver.read(0, 0, 1).cost == 180 * kNsPerUs);
  CHECK(link.receiver.read(0, 0, 1).cost == 0);
}

TEST_CASE("lmmc paging: flow control refuses a write that overfills the frame, credits free it") {
  Link link = make_link();
  write(link, 0, 0, Bytes(4000, 7));
  CHECK(link.sender.write(0, 0, Bytes(97, 7)).refused == Refusal::FrameFull);
  CHECK(link.sender.write(1, 5, Bytes(97, 7)).refused == Refusal::FrameFull);  // per port
  write(link, 0, 0, Bytes(96, 7));  // exactly one page unread
  const ReadResult r = link.receiver.read(1, 4, 100);
  REQUIRE(link.to_sender(r.messages).empty());
  CHECK(link.sender.unread(1) == 3996);
  write(link, 0, 0, Bytes(100, 7));
  CHECK(link.sender.write(0, 0, Bytes(1, 7)).refused == Refusal::FrameFull);
  CHECK(link.sender.paging_requests() == 1);  // refusals never page
}

TEST_CASE("lmmc paging: writes and reads that cannot happen are refused and change nothing") {
  LinkConfig config;
  SendEnd idle(config, PolicyKind::Fifo);
  REQUIRE(idle.open_port(1).empty());
  REQUIRE(idle.map(0, 0, 1).empty());
  CHECK(idle.write(0, 0, {1}).refused == Refusal::NotStarted);
  RecvEnd idle_reader(config);
  CHECK(idle_reader.read(0, 0, 1).refused == Refusal::NotStarted);

  Link link = make_link();
  CHECK(link.sender.write(0, 9, {1}).refused == Refusal::NotMapped);
  CHECK(link.sender.write(0, 0, {}).refused == Refusal::Empty);
  CHECK(link.sender.write(0, 0, Bytes(4097, 0)).refused == Refusal::TooLarge);
  CHECK(link.receiver.read(7, 0, 1).refused == Refusal::NotMapped);
  CHECK(link.receiver.read(0, 0, 0).refused == Refusal::Empty);
  CHECK(link.sender.writes() == 0);
  CHECK(link.sender.paging_requests() == 0);
  CHECK(link.receiver.read(0, 0, 5).data.empty());  // nothing unread: an empty read, no credit
}

TEST_CASE("lmmc paging: explicit page-out and page-in keep both ends in step") {
  Link link = make_link();
  write(link, 0, 0, {1});
  PagingResult out = link.sender.page_out(1);
  REQUIRE(out.error.empty());
  CHECK(decoded(out.messages[0]) == Message{PagingRequest{1, 0, kNoPort}});
  TimeNs cost = 0;
  std::uint64_t saved = 0;
  REQUIRE(link.to_receiver(out.messages, cost, saved).empty());
  CHECK(saved == 1);
  CHECK(link.check_consistency().empty());
  CHECK(link.sender.page_out(1).error == "port 1 is not resident");
  PagingResult in = link.sender.page_in(3);
  REQUIRE(in.error.empty());
  REQUIRE(link.to_receiver(in.messages, cost, saved).empty());
  CHECK(link.receiver.tables().frame_of(3) == FrameIndex{0});
  CHECK(link.sender.page_in(3).error == "port 3 is resident");
  CHECK(link.sender.page_in(8).error == "port 8 is not open");
  CHECK(link.check_consistency().empty());
}

TEST_CASE("lmmc paging: the reading end rejects requests out of phase, range or sequence") {
  Link link = make_link();
  RecvEnd fresh(link.receiver.config());
  CHECK(fresh.on_message(encode(PagingRequest{0, 0, 1})).error ==
        "message before the receive end was initialised");

  const auto reject = [&](const Message& m) { return link.receiver.on_message(encode(m)).error; };
  CHECK(reject(PagingRequest{1, 0, 1}) == "paging request 1 out of sequence (expected 0)");
  CHECK(reject(PagingRequest{0, 0, 9}) == "paging request for unknown port 9");
  CHECK(reject(PagingRequest{0, 1, kNoPort}) == "page-out of frame 1, which is free");
  CHECK(reject(PagingRequest{0, 2, 1}) == "frame 2 out of range (2 frames)");
  CHECK(reject(RemoteWrite{1, 0, {1}}) ==
        "remote write for port 1 into frame 0, which holds nothing");
  CHECK(reject(Credit{1, 1}) == "the reading end does not accept credits");
  CHECK(reject(PagingRequest{0, 0, 1}).empty());
  CHECK(reject(PagingRequest{0, 0, 1}) ==
        "paging request 0 out of sequence (expected 1)");  // replay
  CHECK(reject(PagingRequest{1, 1, 1}) == "port 1 is already resident in frame 0");
  CHECK(reject(RemoteWrite{2, 0, {1}}) ==
        "remote write for port 2 into frame 0, which holds port 1");
  CHECK(reject(RemoteWrite{1, 0, Bytes(4096, 0)}).empty());
  CHECK(reject(RemoteWrite{1, 0, {1}}) == "remote write overflows the frame of port 1");
}

TEST_CASE("lmmc paging: the writing end accepts only credits it can account for") {
  Link link = make_link();
  write(link, 0, 0, {1, 2});
  CHECK(link.sender.on_message(encode(PagingRequest{0, 0, 1})) ==
        "the writing end accepts only credits");
  CHECK(link.sender.on_message(encode(Credit{9, 1})) == "credit for unknown port 9");
  CHECK(link.sender.on_message(encode(Credit{1, 3})) ==
        "credit of 3 bytes for port 1, which has 2 unread");
  CHECK(link.sender.on_message(Bytes{3}) == "credit of 1 bytes, expected 9");
  CHECK(link.sender.on_message(encode(Credit{1, 2})).empty());
  CHECK(link.sender.unread(1) == 0);
}
