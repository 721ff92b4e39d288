// Both ends of the connection handshake (tsunagi/model/handshake.hpp) played by a test against a
// role driven by hand (hostile_harness.hpp): with the run's secret, as a member of the run, or
// with another, as a stranger would. Used by test_hostile_auth.cpp.
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "hostile_harness.hpp"
#include "tsunagi/model/handshake.hpp"

namespace tsunagi::hostile {

inline const std::string kRunSecret = "the run's secret, 32 bytes long!";
inline const std::string kWrongSecret = "a stranger's guess at the secret";

// A role started with the run's secret.
inline StartedInput started(Rank rank, Endpoint self, Endpoint rendezvous, std::string host,
                            std::string site, std::shared_ptr<const ProtocolConfig> cfg) {
  return StartedInput{rank,
                      std::move(self),
                      std::move(rendezvous),
                      std::move(host),
                      std::move(site),
                      std::move(cfg),
                      kRunSecret,
                      42};
}

// The challenge `role` sent on `conn` since `from` (it speaks first on what it accepts).
inline wire::Frame challenge_on(const Driven& role, ConnId conn, std::size_t from = 0) {
  const auto frames = role.sent(conn, from);
  REQUIRE_FALSE(frames.empty());
  REQUIRE(frames.front().type == wire::FrameType::AuthChallenge);
  return frames.front();
}

// The proof an initiator holding `secret` sends in answer to `challenge` for its first frame.
inline wire::Frame proof_for(const wire::Frame& challenge, const std::string& secret,
                             const wire::Frame& first) {
  auth::RunKey key(secret, 7);
  auth::Handshake h;
  auth::begin_initiator(h, key);
  REQUIRE(auth::on_frame(h, key, challenge).prove);
  h.first = auth::first_frame_bytes(first);
  return auth::prove(h, key);
}

// Answers the challenge `role` sent on accepted `conn` with a proof made with `secret`, then
// sends `first` (a hello, register or relay hello).
inline void prove_and_send(Driven& role, ConnId conn, const std::string& secret,
                           const wire::Frame& first) {
  role.frame(conn, proof_for(challenge_on(role, conn), secret, first));
  role.frame(conn, first);
}

// The acceptor's side for a role's outgoing `conn` (a node's connection to the rendezvous):
// challenges it, checks its proof and first frame, and answers with the acceptor's MAC made
// with `secret`. Returns what the role sent after its proof.
inline std::vector<wire::Frame> accept_initiator(Driven& role, ConnId conn,
                                                 const std::string& secret) {
  auth::RunKey key(secret, 9);
  auth::Handshake h;
  const std::size_t mark = role.mark();
  role.frame(conn, *auth::begin_acceptor(h, key));
  auto sent = role.sent(conn, mark);
  REQUIRE(sent.size() >= 2);
  REQUIRE(sent[0].type == wire::FrameType::AuthProof);
  REQUIRE_FALSE(auth::on_frame(h, key, sent[0]).reject);
  auth::Step first = auth::on_frame(h, key, sent[1]);
  if (secret == kRunSecret) REQUIRE(first.deliver);
  if (first.deliver) {
    role.frame(conn, first.send.at(0));
  } else {
    // A stranger without the secret cannot make an acceptor's MAC: it answers with its own.
    wire::Frame fake;
    fake.type = wire::FrameType::AuthAccept;
    const Digest guess = hmac_sha256(secret, "anything");
    fake.payload.assign(guess.begin(), guess.end());
    role.frame(conn, fake);
  }
  return {sent.begin() + 1, sent.end()};
}

// Plays the backend's clock up to `until`: fires every timer the role armed that is due, in
// time order, each once (firing may arm the next).
inline void advance_to(Driven& role, TimeNs until, std::set<std::uint64_t>& fired) {
  while (true) {
    std::optional<ArmTimerCmd> due;
    for (const ArmTimerCmd& t : role.all<ArmTimerCmd>())
      if (t.at <= until && !fired.count(t.timer) && (!due || t.at < due->at)) due = t;
    if (!due) break;
    fired.insert(due->timer);
    role.now = std::max(role.now, due->at);
    role.input(TimerFiredInput{due->timer});
  }
  role.now = until;
}

}  // namespace tsunagi::hostile
