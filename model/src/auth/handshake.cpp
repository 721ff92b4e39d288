// The connection handshake of an authenticated run. See handshake.hpp.
#include "tsunagi/model/handshake.hpp"

#include <algorithm>

#include "tsunagi/model/codec.hpp"

namespace tsunagi::auth {
namespace {

using wire::Frame;
using wire::FrameType;

bool is_handshake(FrameType type) {
  return type == FrameType::AuthChallenge || type == FrameType::AuthProof ||
         type == FrameType::AuthAccept;
}

Frame frame_of(FrameType type, const wire::Bytes& payload) {
  Frame f;
  f.type = type;
  f.payload = payload;
  return f;
}

Step refuse(std::string reason) {
  Step step;
  step.reject = std::move(reason);
  return step;
}

Step out_of_turn(const Frame& frame, const char* waiting_for) {
  return refuse(std::string(wire::to_string(frame.type)) + " frame before authentication (" +
                waiting_for + " expected)");
}

void append(wire::Bytes& out, const std::uint8_t* data, std::size_t size) {
  out.insert(out.end(), data, data + size);
}

Step on_challenge(Handshake& h, RunKey& key, const Frame& frame) {
  if (frame.type != FrameType::AuthChallenge) return out_of_turn(frame, "auth_challenge");
  if (frame.payload.size() != kNonceSize) return refuse("auth_challenge: malformed nonce");
  std::copy(frame.payload.begin(), frame.payload.end(), h.acceptor.begin());
  h.initiator = key.fresh_nonce();
  h.stage = Stage::Challenged;
  Step step;
  step.prove = true;
  return step;
}

Step on_accept(Handshake& h, const RunKey& key, const Frame& frame) {
  if (frame.type != FrameType::AuthAccept) return out_of_turn(frame, "auth_accept");
  const Digest expected = key.mac(true, h.acceptor, h.initiator, h.first);
  if (frame.payload.size() != expected.size() ||
      !equal_in_constant_time(frame.payload.data(), expected.data(), expected.size()))
    return refuse("authentication failed: the acceptor does not hold the run's secret");
  h.stage = Stage::Open;
  return {};
}

Step on_proof(Handshake& h, const Frame& frame) {
  if (frame.type != FrameType::AuthProof) return out_of_turn(frame, "auth_proof");
  if (frame.payload.size() != kNonceSize + h.proof.size())
    return refuse("auth_proof: malformed proof");
  std::copy_n(frame.payload.begin(), kNonceSize, h.initiator.begin());
  std::copy(frame.payload.begin() + kNonceSize, frame.payload.end(), h.proof.begin());
  h.stage = Stage::AwaitFirst;
  return {};
}

Step on_first(Handshake& h, const RunKey& key, const Frame& frame) {
  if (is_handshake(frame.type)) return out_of_turn(frame, "the proven first frame");
  const wire::Bytes first = first_frame_bytes(frame);
  const Digest expected = key.mac(false, h.acceptor, h.initiator, first);
  if (!equal_in_constant_time(h.proof.data(), expected.data(), expected.size()))
    return refuse(std::string("authentication failed: the proof does not cover this ") +
                  wire::to_string(frame.type) + " with the run's secret");
  h.stage = Stage::Open;
  Step step;
  step.deliver = true;
  step.send.push_back(frame_of(FrameType::AuthAccept, [&] {
    const Digest mine = key.mac(true, h.acceptor, h.initiator, first);
    return wire::Bytes(mine.begin(), mine.end());
  }()));
  return step;
}

}  // namespace

Nonce RunKey::fresh_nonce() {
  Hmac mac(secret_);
  mac.update("tsunagi-auth-v1 nonce");
  wire::Writer counter;
  counter.u64(nonce_seed_);
  counter.u64(issued_++);
  const wire::Bytes bytes = counter.take();
  mac.update(bytes.data(), bytes.size());
  const Digest digest = mac.finish();
  Nonce nonce{};
  std::copy_n(digest.begin(), nonce.size(), nonce.begin());
  return nonce;
}

Digest RunKey::mac(bool acceptor_side, const Nonce& acceptor, const Nonce& initiator,
                   const wire::Bytes& first) const {
  Hmac mac(secret_);
  // The label (with its terminating zero) keeps the two sides' MACs apart: the acceptor's
  // answer can never be replayed as an initiator's proof.
  mac.update(acceptor_side ? std::string_view("tsunagi-auth-v1 acceptor\0", 25)
                           : std::string_view("tsunagi-auth-v1 initiator\0", 26));
  mac.update(acceptor.data(), acceptor.size());
  mac.update(initiator.data(), initiator.size());
  mac.update(first.data(), first.size());
  return mac.finish();
}

wire::Bytes first_frame_bytes(const Frame& frame) {
  wire::Writer w;
  w.u8(static_cast<std::uint8_t>(frame.type));
  w.u32(static_cast<std::uint32_t>(frame.payload.size()));
  wire::Bytes out = w.take();
  append(out, frame.payload.data(), frame.payload.size());
  return out;
}

void begin_initiator(Handshake& h, const RunKey& key) {
  h.stage = key.required() ? Stage::AwaitChallenge : Stage::Open;
}

std::optional<Frame> begin_acceptor(Handshake& h, RunKey& key) {
  if (!key.required()) {
    h.stage = Stage::Open;
    return std::nullopt;
  }
  h.acceptor = key.fresh_nonce();
  h.stage = Stage::AwaitProof;
  return frame_of(FrameType::AuthChallenge, wire::Bytes(h.acceptor.begin(), h.acceptor.end()));
}

Step on_frame(Handshake& h, RunKey& key, const Frame& frame) {
  switch (h.stage) {
    case Stage::Open:
      if (is_handshake(frame.type))
        return refuse(std::string("unexpected ") + wire::to_string(frame.type) + " frame");
      return Step{true, std::nullopt, {}, false};
    case Stage::AwaitChallenge:
      return on_challenge(h, key, frame);
    case Stage::Challenged:
      return out_of_turn(frame, "nothing before our proof");
    case Stage::AwaitAccept:
      return on_accept(h, key, frame);
    case Stage::AwaitProof:
      return on_proof(h, frame);
    case Stage::AwaitFirst:
      return on_first(h, key, frame);
  }
  return refuse("handshake in an unknown state");
}

Frame prove(Handshake& h, const RunKey& key) {
  const Digest mac = key.mac(false, h.acceptor, h.initiator, h.first);
  wire::Bytes payload(h.initiator.begin(), h.initiator.end());
  append(payload, mac.data(), mac.size());
  h.stage = Stage::AwaitAccept;
  return frame_of(FrameType::AuthProof, payload);
}

}  // namespace tsunagi::auth
