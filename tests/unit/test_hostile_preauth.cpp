// Issue 29, item 4: memory before authentication (docs/security.md, "Frames before the
// handshake"). Frame sizes were bounded by type only, so a stranger that had not proven the run's
// secret could make a role buffer a whole 64 MiB data frame before the handshake refused it: 16
// such connections raised daemons over 1 GB. Until a connection's handshake is done every frame
// may carry at most 4 KiB (the largest handshake or first frame is far smaller); a header that
// announces more is refused at once, before a byte of its body is kept. Every role shares the
// rule: it lives in the framing (wire/framed_conn.hpp), so every backend has it.
#include <catch2/catch.hpp>

#include "auth_harness.hpp"
#include "wire/framed_conn.hpp"

using namespace tsunagi;
using namespace tsunagi::hostile;
using wire::ConnPurpose;
using wire::FrameType;

namespace {

// A data frame's header announcing `payload` bytes, and the first `body` of them.
Bytes data_header_and_body(std::uint32_t payload, std::size_t body) {
  wire::Frame f = wire::make_data(1, 0, 0, {7, {}}, 0);
  Bytes bytes = wire::encode(f);
  bytes.resize(wire::kHeaderSize);
  for (int i = 0; i < 4; ++i) bytes[20 + i] = static_cast<std::uint8_t>(payload >> (8 * i));
  bytes.resize(wire::kHeaderSize + body, 0x5a);
  return bytes;
}

// Rank 0 of two, authenticated with the rendezvous (played by the test).
Driven authenticated_node() {
  auto cfg = config(2);
  cfg->overlay.shortcut_capacity = 2;
  Driven node(make_node());
  node.input(started(0, endpoint_of(0), "rv:7000", "h0", "", cfg));
  node.input(ConnectedInput{kToRendezvous});
  accept_initiator(node, kToRendezvous, kRunSecret);
  node.frame(kToRendezvous, directory(2));
  return node;
}

// A stranger's connection to `role`: 64 MiB announced, 64 KiB of it sent. Refused at the header.
void check_refused_at_header(Driven& role) {
  const ConnId evil = role.accept(77);
  const std::size_t mark = role.mark();
  role.input(ReceivedInput{evil, data_header_and_body(wire::kMaxPayload, 64 * 1024), 0});
  const auto reasons = role.rejections(mark);
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0] ==
        "oversized payload before authentication: 67108864 bytes > 4096 for a data frame");
  CHECK(role.closed(evil, mark));
}

}  // namespace

TEST_CASE("hostile preauth: a stranger's 64 MiB frame is refused at its header, on every role",
          "[hostile][auth]") {
  SECTION("a node") {
    Driven node = authenticated_node();
    check_refused_at_header(node);
  }
  SECTION("the rendezvous") {
    Driven rv(make_rendezvous());
    rv.input(started(kNoRank, "rv:7000", "", "rv", "", config(2)));
    check_refused_at_header(rv);
  }
  SECTION("a relay") {
    auto cfg = config(2, PlanKind::Relay);
    cfg->relays = 1;
    Driven relay(make_relay());
    relay.input(started(kNoRank, "q0:1", "rv:7000", "w-relay0", "w", cfg));
    relay.input(ConnectedInput{kToRendezvous});
    accept_initiator(relay, kToRendezvous, kRunSecret);
    check_refused_at_header(relay);
  }
}

TEST_CASE("hostile preauth: after a valid proof, the frame its proof covers is bounded too",
          "[hostile][auth]") {
  // A proof made with the secret for a small hello cannot be followed by a 64 MiB frame in the
  // hello's place: the bound holds until the acceptor has checked the frame the proof covers.
  Driven node = authenticated_node();
  const ConnId id = node.accept(5);
  node.frame(id, proof_for(challenge_on(node, id), kRunSecret,
                           wire::make_hello({1, ConnPurpose::Shortcut})));
  const std::size_t mark = node.mark();
  node.input(ReceivedInput{id, data_header_and_body(wire::kMaxPayload, 1024), 0});
  CHECK(mentions(node.rejections(mark), "oversized payload before authentication"));
  CHECK(node.closed(id, mark));
}

TEST_CASE("hostile preauth: an impostor acceptor cannot make an initiator buffer 64 MiB",
          "[hostile][auth]") {
  // The node's own connection to "the rendezvous", answered by someone without the secret: the
  // bound holds until the acceptor's proof has checked out.
  Driven node(make_node());
  node.input(started(0, endpoint_of(0), "rv:7000", "h0", "", config(2)));
  node.input(ConnectedInput{kToRendezvous});
  const std::size_t mark = node.mark();
  node.input(ReceivedInput{kToRendezvous, data_header_and_body(wire::kMaxPayload, 1024), 0});
  CHECK(mentions(node.rejections(mark), "oversized payload before authentication"));
}

TEST_CASE("hostile preauth: once proven, a connection carries frames of the wire's full size",
          "[hostile][auth]") {
  // The positive control: a member's shortcut, proven, sends a 1 MiB data frame; it arrives.
  Driven node = authenticated_node();
  const ConnId id = node.accept(6);
  prove_and_send(node, id, kRunSecret, wire::make_hello({1, ConnPurpose::Shortcut}));
  const std::size_t mark = node.mark();
  node.frame(id, wire::make_data(1, 0, 0, {7, Bytes(1 << 20, 1)}, 0));
  CHECK(node.rejections(mark).empty());
  CHECK_FALSE(node.closed(id, mark));
}

TEST_CASE("hostile preauth: a run without a secret keeps the wire's limits", "[hostile][auth]") {
  // Unit tests that script frames by hand run without a secret: nothing to wait for.
  wire::Deframer d;
  d.feed(data_header_and_body(1 << 20, 1 << 20));
  CHECK(std::holds_alternative<wire::Frame>(d.next()));
}
