// Conformance cases 4-5: frames and filler arrive as one ordered stream in both directions at
// once; a close delivers every byte before ClosedInput and nothing after it.
#include <catch2/catch.hpp>

#include "case_support.hpp"

using namespace tsunagi;
using namespace tsunagi::conformance;

namespace {

// Frames with bytes only, filler only, both, and a payload larger than a segment.
std::vector<SendCmd> frames_one_way(ConnId conn) {
  return {SendCmd{conn, pattern(10, 1), 0},    SendCmd{conn, pattern(3, 2), 5000},
          SendCmd{conn, Bytes{}, 70000},       SendCmd{conn, pattern(1500, 3), 3},
          SendCmd{conn, Bytes{0xEE}, 0},       SendCmd{conn, pattern(20000, 4), 0},
          SendCmd{conn, pattern(7, 5), 100000}};
}

std::vector<SendCmd> frames_other_way(ConnId conn) {
  return {SendCmd{conn, pattern(2000, 9), 100000}, SendCmd{conn, Bytes{'x'}, 0},
          SendCmd{conn, Bytes{}, 10}, SendCmd{conn, pattern(2, 7), 0},
          SendCmd{conn, pattern(30000, 8), 1}};
}

std::uint64_t total(const std::vector<SendCmd>& sends) {
  std::uint64_t sum = 0;
  for (const SendCmd& send : sends) sum += send.bytes.size() + send.filler;
  return sum;
}

// What every ReceivedInput of a rank carried, summed: payload bytes that are zeros, filler.
struct Split {
  std::uint64_t bytes = 0;
  std::uint64_t zero_bytes = 0;
  std::uint64_t filler = 0;
};
Split split_received(const Outcome& outcome, Rank rank, ConnId conn) {
  Split split;
  for (const auto& [at, received] : outcome.of<ReceivedInput>(rank)) {
    if (received.conn != conn) continue;
    split.bytes += received.bytes.size();
    for (std::uint8_t b : received.bytes) split.zero_bytes += b == 0 ? 1 : 0;
    split.filler += received.filler;
  }
  return split;
}

std::uint64_t filler_of(const std::vector<SendCmd>& sends) {
  std::uint64_t sum = 0;
  for (const SendCmd& send : sends) sum += send.filler;
  return sum;
}

void check_stream(const Outcome& out, Rank rank, ConnId conn, const std::vector<SendCmd>& sent) {
  const Bytes expected = stream_of(sent);
  const Bytes got = stream_received(out, rank, conn);
  INFO("stream received by " << runner::process_label(rank) << ": " << got.size() << " of "
                             << expected.size() << " bytes");
  CHECK(received_total(out, rank, conn) == total(sent));
  // Payload bytes in order; every filler byte either credited or delivered as a zero byte.
  const Split split = split_received(out, rank, conn);
  CHECK(split.filler + split.zero_bytes == filler_of(sent));
  CHECK(first_difference(got, expected) == -1);
}

}  // namespace

TEST_CASE("stream_order_frames_and_filler", "[conformance]") {
  // r0 connects to r1; on Connected r0 sends its frames, on Accepted r1 sends its own: both
  // directions are in flight at once. Each leaves once it has everything the other sent (an
  // exit still delivers what it has queued: every backend flushes an exited process's streams).
  auto world = make_world();
  const std::vector<SendCmd> to_r1 = frames_one_way(1);
  ConnId r1_conn = 0;
  Scripts scripts;
  scripts[0] = [&to_r1, expect = total(frames_other_way(0)), got = std::uint64_t{0}](
                   Scripted& self, const Input& input) mutable {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ConnectCmd{1, self.world().endpoint_of(1)});
    if (std::holds_alternative<ConnectedInput>(input.event))
      for (const SendCmd& send : to_r1) self.command(send);
    if (const auto* r = std::get_if<ReceivedInput>(&input.event)) {
      got += r->bytes.size() + r->filler;
      if (got == expect) self.command(ExitCmd{true, "received all"});
    }
  };
  scripts[1] = [&r1_conn, expect = total(to_r1), got = std::uint64_t{0}](
                   Scripted& self, const Input& input) mutable {
    if (const auto* a = std::get_if<AcceptedInput>(&input.event)) {
      r1_conn = a->conn;
      for (const SendCmd& send : frames_other_way(a->conn)) self.command(send);
    }
    if (const auto* r = std::get_if<ReceivedInput>(&input.event)) {
      got += r->bytes.size() + r->filler;
      if (got == expect) self.command(ExitCmd{true, "received all"});
    }
  };
  const Outcome out = world->run(lan(2), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_all(out, 1));
  INFO(describe_exits(out));
  REQUIRE(r1_conn != 0);
  check_stream(out, 1, r1_conn, to_r1);
  check_stream(out, 0, 1, frames_other_way(1));
  if (world->simulated()) {
    // The last of 228 KB cannot arrive before a 1 Gbit/s link has carried them.
    const auto received = out.of<ReceivedInput>(1);
    REQUIRE_FALSE(received.empty());
    CHECK(static_cast<double>(received.back().first) >=
          static_cast<double>(total(to_r1)) / kHostBandwidth * 1e9);
  }
  CHECK(out.all_exited_ok);
}

TEST_CASE("close_after_frames", "[conformance]") {
  // r0 connects to r1 and, on Connected, sends its frames and closes at once. r1 sends to r0
  // when it accepts (before it can have seen the close), gets every byte, then ClosedInput;
  // then it sends and closes once more on the dead connection, which must change nothing.
  auto world = make_world();
  const std::vector<SendCmd> to_r1 = frames_one_way(1);
  ConnId r1_conn = 0;
  Scripts scripts;
  scripts[0] = [&to_r1](Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event))
      self.command(ConnectCmd{1, self.world().endpoint_of(1)});
    if (std::holds_alternative<ConnectedInput>(input.event)) {
      for (const SendCmd& send : to_r1) self.command(send);
      self.command(CloseCmd{1});
      self.command(ArmTimerCmd{1, input.now + 200 * kNsPerMs});
    }
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, "done"});
  };
  scripts[1] = [&r1_conn](Scripted& self, const Input& input) {
    if (const auto* a = std::get_if<AcceptedInput>(&input.event)) {
      r1_conn = a->conn;
      self.command(SendCmd{a->conn, pattern(100, 11), 1000});
      self.command(SendCmd{a->conn, pattern(5000, 12), 0});
    }
    if (const auto* c = std::get_if<ClosedInput>(&input.event)) {
      self.command(SendCmd{c->conn, pattern(10, 13), 10});  // the peer is gone: dropped
      self.command(CloseCmd{c->conn});                      // already closed: nothing to do
      self.command(ArmTimerCmd{1, input.now + 200 * kNsPerMs});
    }
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, "done"});
  };
  const Outcome out = world->run(lan(2), scripts, kWallLimit);
  INFO(describe_all(out, 0));
  INFO(describe_all(out, 1));
  INFO(describe_exits(out));
  REQUIRE(r1_conn != 0);

  // r1: Accepted, the bytes, Closed, in that order, and nothing after the close.
  const std::vector<Input> about = out.about(1, r1_conn);
  REQUIRE(about.size() >= 2);
  CHECK(std::holds_alternative<AcceptedInput>(about.front().event));
  CHECK(std::holds_alternative<ClosedInput>(about.back().event));
  CHECK(out.of<ClosedInput>(1).size() == 1);
  for (std::size_t i = 1; i + 1 < about.size(); ++i)
    CHECK(std::holds_alternative<ReceivedInput>(about[i].event));
  check_stream(out, 1, r1_conn, to_r1);

  // r0 closed in its Connected step: nothing more about the connection reaches it (what r1
  // sent is dropped, r1's own close is not reported back).
  const std::vector<Input> r0_about = out.about(0, 1);
  REQUIRE_FALSE(r0_about.empty());
  CHECK(std::holds_alternative<ConnectedInput>(r0_about.front().event));
  CHECK(r0_about.size() == 1);
  if (world->simulated()) {
    const auto connected = out.of<ConnectedInput>(0);
    REQUIRE(connected.size() == 1);
    CHECK(about.back().now >= connected[0].first + kOneWay);
  }
  CHECK(out.all_exited_ok);
}
