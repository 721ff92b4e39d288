// Issue 17: authenticated runs (docs/security.md, "Authenticated runs"). A stranger without the
// run's secret cannot register, query endpoints, attach to a relay, open a shortcut or make any
// rank act on a frame: every frame it sends is refused with a reason (frame_rejected) and its
// connection closed, while the same steps with the secret succeed (the positive controls).
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <set>

#include "auth_harness.hpp"
#include "wire/framed_conn.hpp"

using namespace tsunagi;
using namespace tsunagi::hostile;
using wire::ConnPurpose;
using wire::FrameType;

namespace {

// Rank 0 of two (plan all), started with the run's secret, authenticated with the rendezvous
// (played by the test), registered, with the directory: it has opened its static connection
// to rank 1.
Driven authenticated_node() {
  auto cfg = config(2);
  cfg->overlay.shortcut_capacity = 2;  // room for the shortcut the positive control opens
  Driven node(make_node());
  node.input(started(0, endpoint_of(0), "rv:7000", "h0", "", cfg));
  node.input(ConnectedInput{kToRendezvous});
  CHECK(node.sent(kToRendezvous).empty());  // nothing before the rendezvous's challenge
  const auto after_proof = accept_initiator(node, kToRendezvous, kRunSecret);
  REQUIRE(after_proof.size() == 2);
  CHECK(after_proof[0].type == FrameType::Hello);
  CHECK(after_proof[1].type == FrameType::Register);
  node.frame(kToRendezvous, directory(2));
  return node;
}

// Every frame type a role takes from someone, as a stranger might send them unauthenticated.
std::vector<wire::Frame> every_frame() {
  return {wire::make_hello({1, ConnPurpose::Shortcut}),
          wire::make_hello({1, ConnPurpose::Static}),
          wire::make_register({1, "x:1", "h", ""}),
          directory(2),
          wire::make_groups({Groups{{0, 1}}, std::nullopt}),
          wire::make_route_round(1, 0, {0, true, {{1, 0}}}),
          wire::make_data(1, 0, 0, {7, {1, 2}}, 0),
          wire::make_done(1),
          wire::make_shutdown(),
          wire::make_goodbye(),
          wire::make_probe_order({1, 1, 1000}),
          wire::make_rtt_order({0, {1}}),
          wire::make_endpoint_query({{0, 1}}),
          wire::make_endpoint_reply({{1}, {"x:1"}}),
          wire::make_relay_list({{{"q", "s", "q:1"}}, {0}}),
          wire::make_start(),
          wire::make_peer_unreachable(1, 0),
          wire::make_release(),
          wire::make_undeliverable(1, 0, {0, 0, "x"})};
}

}  // namespace

TEST_CASE("auth: a node acts on no frame from a connection that has not proven the secret",
          "[hostile][auth]") {
  Driven node = authenticated_node();
  std::uint64_t n = 1;
  for (const wire::Frame& frame : every_frame()) {
    INFO(wire::to_string(frame.type));
    const ConnId evil = node.accept(n++);
    const std::size_t mark = node.mark();
    node.frame(evil, frame);
    const auto reasons = node.rejections(mark);
    REQUIRE(reasons.size() == 1);
    CHECK(reasons[0] == std::string(wire::to_string(frame.type)) +
                            " frame before authentication (auth_proof expected)");
    CHECK(node.closed(evil, mark));
    // Nothing else happened: no decision, no connect, nothing sent but the challenge.
    CHECK(node.all<TraceCmd>(mark).size() == 1);
    CHECK(node.all<ConnectCmd>(mark).empty());
    CHECK(node.all<ExitCmd>(mark).empty());
    CHECK(node.sent(evil, mark).empty());
  }
}

TEST_CASE("auth: a stranger with the wrong secret cannot open a shortcut or pose as a rank",
          "[hostile][auth]") {
  Driven node = authenticated_node();
  const wire::Frame hello = wire::make_hello({1, ConnPurpose::Shortcut});

  SECTION("a proof made with another secret is refused") {
    const ConnId evil = node.accept(1);
    const std::size_t mark = node.mark();
    prove_and_send(node, evil, kWrongSecret, hello);
    CHECK(node.rejections(mark) ==
          std::vector<std::string>{
              "authentication failed: the proof does not cover this hello with the run's secret"});
    CHECK(node.traces("shortcut_up", mark).empty());
    CHECK(node.closed(evil, mark));
    // It cannot go on as if it had been accepted: the connection is gone.
    node.frame(evil, wire::make_data(1, 0, 0, {7, {}}, 0));
    CHECK(node.rejections(mark).size() == 1);
  }
  SECTION("a proof recorded on one connection is useless on another") {
    const ConnId first = node.accept(1);
    const ConnId second = node.accept(2);
    const wire::Frame proof = proof_for(challenge_on(node, first), kRunSecret, hello);
    const std::size_t mark = node.mark();
    node.frame(second, proof);
    node.frame(second, hello);
    CHECK(mentions(node.rejections(mark), "authentication failed"));
    CHECK(node.traces("shortcut_up", mark).empty());
  }
  SECTION("the proof covers the hello: another rank or purpose behind it is refused") {
    const ConnId id = node.accept(1);
    const std::size_t mark = node.mark();
    node.frame(id, proof_for(challenge_on(node, id), kRunSecret, hello));
    node.frame(id, wire::make_hello({1, ConnPurpose::Static}));
    CHECK(mentions(node.rejections(mark), "authentication failed"));
  }
  SECTION("with the secret, the same hello opens the shortcut (the positive control)") {
    const ConnId id = node.accept(1);
    const std::size_t mark = node.mark();
    prove_and_send(node, id, kRunSecret, hello);
    CHECK(node.rejections(mark).empty());
    CHECK_FALSE(node.closed(id, mark));
    // Accepted and kept; the decision waits until this node's own routes are done
    // (Node::shortcut_up), and this node has not received its groups yet.
    CHECK(node.traces("shortcut_up", mark).empty());
    const auto answer = node.sent(id, mark);
    REQUIRE_FALSE(answer.empty());
    CHECK(answer[0].type == FrameType::AuthAccept);
  }
  SECTION("a member of the run cannot claim the node's own rank") {
    const ConnId id = node.accept(1);
    const std::size_t mark = node.mark();
    prove_and_send(node, id, kRunSecret, wire::make_hello({0, ConnPurpose::Shortcut}));
    CHECK(node.rejections(mark) == std::vector<std::string>{"hello claims this node's own rank"});
  }
}

TEST_CASE("auth: a node does not obey an impostor of the rendezvous", "[hostile][auth]") {
  Driven node(make_node());
  node.input(started(0, endpoint_of(0), "rv:7000", "h0", "", config(2)));
  node.input(ConnectedInput{kToRendezvous});

  SECTION("its proof without the secret is refused, the node fails with the reason") {
    const std::size_t mark = node.mark();
    accept_initiator(node, kToRendezvous, kWrongSecret);
    CHECK(node.rejections(mark) ==
          std::vector<std::string>{
              "authentication failed: the acceptor does not hold the run's secret"});
    CHECK(node.closed(kToRendezvous, mark));
  }
  SECTION("a directory before the impostor proved itself is refused, not used") {
    auth::RunKey key(kWrongSecret, 1);
    auth::Handshake h;
    node.frame(kToRendezvous, *auth::begin_acceptor(h, key));
    const std::size_t mark = node.mark();
    node.frame(kToRendezvous, directory(2));
    CHECK(node.rejections(mark) ==
          std::vector<std::string>{"directory frame before authentication (auth_accept expected)"});
    CHECK(node.all<ConnectCmd>(mark).empty());
  }
}

TEST_CASE("auth: a stranger cannot register with the rendezvous or query endpoints",
          "[hostile][auth]") {
  Driven rv(make_rendezvous());
  rv.input(started(kNoRank, "rv:7000", "", "rv", "", config(2)));
  const wire::Frame hello = wire::make_hello({1, ConnPurpose::Control});
  const wire::Frame reg = wire::make_register({1, "evil:1", "evil", ""});

  SECTION("unauthenticated frames are refused") {
    for (const wire::Frame& frame :
         {hello, reg, wire::make_endpoint_query({{0, 1}}), wire::make_done(1),
          wire::make_relay_register({{"q", "", "q:1"}})}) {
      const ConnId evil = rv.accept(rv.mark() + 100);
      const std::size_t mark = rv.mark();
      rv.frame(evil, frame);
      CHECK(mentions(rv.rejections(mark), "before authentication"));
      CHECK(rv.sent(evil, mark).empty());
    }
  }
  SECTION("a proof with the wrong secret is refused; the rank stays free for its owner") {
    const ConnId evil = rv.accept(1);
    const std::size_t mark = rv.mark();
    prove_and_send(rv, evil, kWrongSecret, hello);
    rv.frame(evil, reg);
    CHECK(mentions(rv.rejections(mark), "authentication failed"));
    // The real rank 1 and rank 0 register afterwards: the directory goes out.
    for (Rank r = 0; r < 2; ++r) {
      const ConnId id = rv.accept(10 + static_cast<std::uint64_t>(r));
      prove_and_send(rv, id, kRunSecret, wire::make_hello({r, ConnPurpose::Control}));
      rv.frame(id, wire::make_register({r, endpoint_of(r), "h", ""}));
    }
    CHECK(rv.traces("directory").size() == 1);
  }
  SECTION("an authenticated connection registers only the rank its hello named") {
    const ConnId id = rv.accept(1);
    const std::size_t mark = rv.mark();
    prove_and_send(rv, id, kRunSecret, hello);
    rv.frame(id, wire::make_register({0, "x:1", "h", ""}));
    CHECK(rv.rejections(mark) ==
          std::vector<std::string>{"register for rank 0 on a connection that greeted as rank 1"});
  }
}

TEST_CASE("auth: a stranger cannot attach to a relay or link to it", "[hostile][auth]") {
  auto cfg = config(2, PlanKind::Relay);
  cfg->relays = 1;
  Driven relay(make_relay());
  relay.input(started(kNoRank, "q0:1", "rv:7000", "w-relay0", "w", cfg));
  const wire::Frame attach = wire::make_hello({0, ConnPurpose::Relay});
  for (const std::string& secret : {kWrongSecret, std::string()}) {
    const ConnId evil = relay.accept(secret.empty() ? 2 : 1);
    const std::size_t mark = relay.mark();
    if (secret.empty())
      relay.frame(evil, attach);  // no proof at all
    else
      prove_and_send(relay, evil, secret, attach);
    CHECK(relay.rejections(mark).size() == 1);
    CHECK(relay.closed(evil, mark));
    CHECK(relay.sent(evil, mark).empty());
  }
  const ConnId evil = relay.accept(3);
  const std::size_t mark = relay.mark();
  prove_and_send(relay, evil, kWrongSecret, wire::make_relay_hello({"x-relay0"}));
  CHECK(mentions(relay.rejections(mark), "authentication failed"));
}

namespace {

// Accepts a silent stranger, a connection that proves itself and one that stops half-way, then
// plays the clock: nobody is refused before the deadline, only the two at it, with the reason.
void check_handshake_deadline(Driven& role, const wire::Frame& proper_first) {
  std::set<std::uint64_t> fired;
  advance_to(role, role.now, fired);
  const TimeNs accepted_at = role.now;
  const std::size_t mark = role.mark();
  const ConnId silent = role.accept(901);
  const ConnId proper = role.accept(902);
  const ConnId halfway = role.accept(903);
  prove_and_send(role, proper, kRunSecret, proper_first);
  role.frame(halfway, proof_for(challenge_on(role, halfway), kRunSecret, proper_first));
  advance_to(role, accepted_at + wire::kHandshakeTimeout - 1, fired);
  CHECK(role.rejections(mark).empty());
  const std::size_t before = role.mark();
  advance_to(role, accepted_at + wire::kHandshakeTimeout, fired);
  CHECK(role.rejections(before) == std::vector<std::string>(2, wire::kUnprovenReason));
  CHECK(role.closed(silent, before));
  CHECK(role.closed(halfway, before));  // proved, but never sent the frame the proof covers
  CHECK_FALSE(role.closed(proper, mark));
}

}  // namespace

TEST_CASE("auth: a stranger that never proves the secret is refused 10 s after the accept",
          "[hostile][auth]") {
  SECTION("a node") {
    Driven node = authenticated_node();
    check_handshake_deadline(node, wire::make_hello({1, ConnPurpose::Shortcut}));
  }
  SECTION("the rendezvous") {
    Driven rv(make_rendezvous());
    rv.input(started(kNoRank, "rv:7000", "", "rv", "", config(2)));
    check_handshake_deadline(rv, wire::make_hello({1, ConnPurpose::Control}));
  }
  SECTION("a relay") {
    auto cfg = config(2, PlanKind::Relay);
    cfg->relays = 1;
    Driven relay(make_relay());
    relay.input(started(kNoRank, "q0:1", "rv:7000", "w-relay0", "w", cfg));
    relay.input(ConnectedInput{kToRendezvous});  // else its own connect times out first
    accept_initiator(relay, kToRendezvous, kRunSecret);
    check_handshake_deadline(relay, wire::make_hello({0, ConnPurpose::Relay}));
  }
}
