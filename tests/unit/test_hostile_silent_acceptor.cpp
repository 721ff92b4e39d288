// Issue 29, item 5: a deadline on the initiator's side of the handshake (docs/security.md,
// "Silent listeners"). The connect deadline used to be settled when TCP connected, and static
// peers, shortcuts and relays counted as up from that moment: a listener on a peer's port that
// accepts and then says nothing (a squatter on the rendezvous's fixed port, a process that took
// a dead rank's port) held the node until the run's --timeout. Now a connection counts as up
// only once the acceptor has proven the run's secret, and one whose acceptor has not done so
// kInitiatorHandshakeTimeout after the connect is given up: the node reports the peer and
// routes around it, as for a connect that timed out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <set>

#include "auth_harness.hpp"
#include "wire/framed_conn.hpp"

using namespace tsunagi;
using namespace tsunagi::hostile;
using wire::FrameType;

namespace {

// Rank 0 of two (plan all, routing rounds), authenticated with the rendezvous, with the
// directory and the groups: it has opened its static connection to rank 1. Returns that connection.
ConnId static_connection_of(Driven& node) {
  node.input(started(0, endpoint_of(0), "rv:7000", "h0", "", config(2)));
  node.input(ConnectedInput{kToRendezvous});
  accept_initiator(node, kToRendezvous, kRunSecret);
  node.frame(kToRendezvous, directory(2));
  node.frame(kToRendezvous,
             wire::make_groups({Groups{{0, 1}}, std::nullopt}));  // one group: plan all
  for (const ConnectCmd& c : node.all<ConnectCmd>())
    if (c.to == endpoint_of(1)) return c.conn;
  FAIL("rank 0 did not connect to rank 1");
  return 0;
}

bool told_rendezvous_unreachable(const Driven& node, std::size_t from) {
  return has_type(node.sent(kToRendezvous, from), FrameType::PeerUnreachable);
}

}  // namespace

TEST_CASE("silent acceptor: a static peer's port that never proves the secret is given up",
          "[hostile][auth]") {
  Driven node(make_node());
  const ConnId peer = static_connection_of(node);
  std::set<std::uint64_t> fired;
  const std::size_t mark = node.mark();
  node.input(ConnectedInput{peer});  // TCP connected: something listens there
  const TimeNs connected_at = node.now;
  advance_to(node, connected_at + wire::kInitiatorHandshakeTimeout - 1, fired);
  CHECK_FALSE(node.closed(peer, mark));
  CHECK_FALSE(told_rendezvous_unreachable(node, mark));
  advance_to(node, connected_at + wire::kInitiatorHandshakeTimeout, fired);
  // Reported (a decision naming the peer, the rendezvous told) and closed: routes go around.
  CHECK(node.closed(peer, mark));
  const auto silent = node.traces("handshake_timed_out", mark);
  REQUIRE(silent.size() == 1);
  CHECK(silent[0].detail.at("peer") == 1);
  CHECK(told_rendezvous_unreachable(node, mark));
  CHECK_FALSE(node.exit());
}

TEST_CASE("silent acceptor: a peer that proves itself in time stays (the positive control)",
          "[hostile][auth]") {
  Driven node(make_node());
  const ConnId peer = static_connection_of(node);
  std::set<std::uint64_t> fired;
  const std::size_t mark = node.mark();
  node.input(ConnectedInput{peer});
  accept_initiator(node, peer, kRunSecret);
  advance_to(node, node.now + 2 * wire::kInitiatorHandshakeTimeout, fired);
  CHECK_FALSE(node.closed(peer, mark));
  CHECK(node.traces("handshake_timed_out", mark).empty());
  CHECK_FALSE(told_rendezvous_unreachable(node, mark));
}

TEST_CASE("silent acceptor: a peer counts as up only after the acceptor's proof",
          "[hostile][auth]") {
  // Rank 0 of two routes with rank 1 once its static connection is up: its routing round goes
  // out behind the handshake. An impostor on rank 1's port (no secret) must not make rank 0
  // believe the link exists: it is refused, and the peer reported unreachable.
  Driven node(make_node());
  const ConnId peer = static_connection_of(node);
  const std::size_t mark = node.mark();
  node.input(ConnectedInput{peer});
  accept_initiator(node, peer, kWrongSecret);
  CHECK(mentions(node.rejections(mark), "the acceptor does not hold the run's secret"));
  CHECK(node.closed(peer, mark));
  CHECK(told_rendezvous_unreachable(node, mark));
}

TEST_CASE("silent acceptor: a silent listener on the rendezvous's port ends the node with why",
          "[hostile][auth]") {
  Driven node(make_node());
  node.input(started(0, endpoint_of(0), "rv:7000", "h0", "", config(2)));
  std::set<std::uint64_t> fired;
  node.input(ConnectedInput{kToRendezvous});
  advance_to(node, node.now + wire::kInitiatorHandshakeTimeout, fired);
  const auto exit = node.exit();
  REQUIRE(exit);
  CHECK_FALSE(exit->ok);
  CHECK(exit->reason.find("cannot reach the rendezvous") == 0);
  CHECK(exit->reason.find("did not prove the run's secret") != std::string::npos);
}

TEST_CASE("silent acceptor: a relay gives up a silent listener on the rendezvous's port",
          "[hostile][auth]") {
  auto cfg = config(2, PlanKind::Relay);
  cfg->relays = 1;
  Driven relay(make_relay());
  relay.input(started(kNoRank, "q0:1", "rv:7000", "w-relay0", "w", cfg));
  std::set<std::uint64_t> fired;
  relay.input(ConnectedInput{kToRendezvous});
  advance_to(relay, relay.now + wire::kInitiatorHandshakeTimeout, fired);
  const auto exit = relay.exit();
  REQUIRE(exit);
  CHECK(exit->reason.find("did not prove the run's secret") != std::string::npos);
}
