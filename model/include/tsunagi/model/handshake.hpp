// The handshake that opens every connection of an authenticated run (docs/security.md,
// "Authenticated runs").
//
// Every process of a run holds the run's secret; nobody else does. The acceptor of a connection
// speaks first with a fresh nonce (AuthChallenge). The initiator answers with its own nonce and
// an HMAC-SHA-256 over both nonces and the first frame it sends next — its hello (rank and
// purpose), its register or its relay hello (AuthProof), then sends that frame and whatever it
// queued. The acceptor checks the MAC against that first frame before acting on it, and answers
// with its own MAC over the same (AuthAccept); the initiator acts on nothing the acceptor sends
// before that answer checked out. Nonces from both ends make a recorded exchange useless on any
// other connection. A frame that arrives out of turn, or a MAC that does not match, closes the
// connection with a reason.
//
// A role started without a secret (unit tests that script frames by hand) does not
// authenticate; every backend passes one, and the realnet daemons refuse to start without it.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/sha256.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::auth {

constexpr std::size_t kNonceSize = 16;
using Nonce = std::array<std::uint8_t, kNonceSize>;

// The run's secret and one process's nonces. Nonces are HMAC(secret, seed, counter): no one
// without the secret can predict them, and a per-process seed keeps two processes (or two
// starts of one) from repeating each other's.
class RunKey {
 public:
  RunKey() = default;
  RunKey(std::string secret, std::uint64_t nonce_seed)
      : secret_(std::move(secret)), nonce_seed_(nonce_seed) {}
  bool required() const { return !secret_.empty(); }
  Nonce fresh_nonce();
  // The initiator's MAC (`acceptor_side` false) or the acceptor's over the two nonces and the
  // first frame's type and payload.
  Digest mac(bool acceptor_side, const Nonce& acceptor, const Nonce& initiator,
             const wire::Bytes& first) const;

 private:
  std::string secret_;
  std::uint64_t nonce_seed_ = 0;
  std::uint64_t issued_ = 0;
};

// The first frame's type and payload, what both MACs cover.
wire::Bytes first_frame_bytes(const wire::Frame& frame);

enum class Stage : std::uint8_t {
  Open,            // authenticated, or the run does not authenticate: frames go to the role
  AwaitChallenge,  // initiator: connected or connecting, sends nothing yet
  Challenged,      // initiator: has the acceptor's nonce, proves itself with its first frame
  AwaitAccept,     // initiator: proved itself; waits for the acceptor's proof
  AwaitProof,      // acceptor: challenged the initiator
  AwaitFirst,      // acceptor: has the initiator's MAC, checks it against the next frame
};

struct Handshake {
  Stage stage = Stage::Open;
  Nonce acceptor{};
  Nonce initiator{};
  Digest proof{};     // acceptor: the initiator's MAC
  wire::Bytes first;  // initiator: its first frame (first_frame_bytes)
  bool open() const { return stage == Stage::Open; }
};

// An outgoing connection: wait for the acceptor's challenge (when the run authenticates).
void begin_initiator(Handshake& h, const RunKey& key);
// An accepted connection: the challenge to send at once, none when the run does not
// authenticate.
std::optional<wire::Frame> begin_acceptor(Handshake& h, RunKey& key);

// What to do with one received frame.
struct Step {
  bool deliver = false;               // hand the frame to the role
  std::optional<std::string> reject;  // close the connection: why (a frame_rejected line)
  std::vector<wire::Frame> send;      // send these at once, before anything queued
  bool prove = false;                 // initiator: send the proof with its first frame
};
// Every frame a connection receives passes here before the role sees it.
Step on_frame(Handshake& h, RunKey& key, const wire::Frame& frame);

// Initiator, Challenged, `h.first` set: the proof that must precede its first frame.
wire::Frame prove(Handshake& h, const RunKey& key);

}  // namespace tsunagi::auth
