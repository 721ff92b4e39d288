#include <algorithm>

#include "tsunagi/model/codec.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::wire {

const char* to_string(FrameType type) {
  switch (type) {
    case FrameType::Hello:
      return "hello";
    case FrameType::Register:
      return "register";
    case FrameType::Directory:
      return "directory";
    case FrameType::RttReport:
      return "rtt_report";
    case FrameType::GroupsMsg:
      return "groups";
    case FrameType::RouteRound:
      return "route_round";
    case FrameType::Data:
      return "data";
    case FrameType::Done:
      return "done";
    case FrameType::Shutdown:
      return "shutdown";
    case FrameType::Goodbye:
      return "goodbye";
    case FrameType::ProbeOrder:
      return "probe_order";
    case FrameType::ProbeResult:
      return "probe_result";
    case FrameType::RttOrder:
      return "rtt_order";
    case FrameType::RttColumn:
      return "rtt_column";
    case FrameType::EndpointQuery:
      return "endpoint_query";
    case FrameType::EndpointReply:
      return "endpoint_reply";
    case FrameType::RelayRegister:
      return "relay_register";
    case FrameType::RelayList:
      return "relay_list";
    case FrameType::RelayHello:
      return "relay_hello";
    case FrameType::LinkAdvert:
      return "link_advert";
    case FrameType::Undeliverable:
      return "undeliverable";
    case FrameType::Settled:
      return "settled";
    case FrameType::Start:
      return "start";
    case FrameType::PeerUnreachable:
      return "peer_unreachable";
    case FrameType::ShutdownAck:
      return "shutdown_ack";
    case FrameType::Release:
      return "release";
    case FrameType::AuthChallenge:
      return "auth_challenge";
    case FrameType::AuthProof:
      return "auth_proof";
    case FrameType::AuthAccept:
      return "auth_accept";
    case FrameType::WindowOrder:
      return "window_order";
    case FrameType::WindowGroups:
      return "window_groups";
    case FrameType::ProbeTurn:
      return "probe_turn";
    case FrameType::ProbeTurnGrant:
      return "probe_turn_grant";
  }
  return "unknown";
}

namespace {

bool known_type(std::uint8_t t) {
  return t >= static_cast<std::uint8_t>(FrameType::Hello) &&
         t <= static_cast<std::uint8_t>(kLastFrameType);
}

std::uint64_t read_le(const std::uint8_t* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return v;
}

}  // namespace

std::uint32_t max_payload(FrameType type) {
  // Generous for bodies of a few fields and strings of at most kMaxEndpointLength; a peer that
  // announces more for them is lying, and is refused before it can make us wait for the bytes.
  constexpr std::uint32_t kSmallBody = 4096;
  switch (type) {
    case FrameType::Hello:
    case FrameType::Register:
    case FrameType::Done:
    case FrameType::Shutdown:
    case FrameType::Goodbye:
    case FrameType::ProbeOrder:
    case FrameType::ProbeResult:
    case FrameType::RelayRegister:
    case FrameType::RelayHello:
    case FrameType::Undeliverable:
    case FrameType::Settled:
    case FrameType::Start:
    case FrameType::PeerUnreachable:
    case FrameType::ShutdownAck:
    case FrameType::Release:
    case FrameType::AuthChallenge:
    case FrameType::AuthProof:
    case FrameType::AuthAccept:
    case FrameType::ProbeTurn:
    case FrameType::ProbeTurnGrant:
      return kSmallBody;
    default:
      return kMaxPayload;
  }
}

Bytes encode(const Frame& frame) {
  Writer w;
  w.buffer().reserve(kHeaderSize + frame.payload.size());
  w.u8(kMagic);
  w.u8(kWireVersion);
  w.u8(static_cast<std::uint8_t>(frame.type));
  w.u8(0);
  w.u8(frame.hops);
  w.u8(frame.ttl);
  w.u16(0);
  w.i32(frame.src);
  w.i32(frame.dst);
  w.u32(frame.seq);
  w.u32(static_cast<std::uint32_t>(frame.payload.size()));
  w.u64(frame.filler);
  Bytes out = w.take();
  out.insert(out.end(), frame.payload.begin(), frame.payload.end());
  return out;
}

void Deframer::feed(const Bytes& bytes, std::uint64_t filler_credit) {
  filler_credit_ += filler_credit;
  std::size_t skip = 0;
  // Filler is only counted, never stored: a bulk message is mostly filler, and copying it into
  // the buffer just to step over it doubled the bytes a real backend moves per message. Only
  // when nothing is buffered before it, so bytes are still consumed in stream order; taken as
  // next() takes it, credit first.
  if (pending_ && payload_done_ && read_pos_ == buffer_.size() && filler_needed_ > 0) {
    const std::uint64_t from_credit = std::min(filler_credit_, filler_needed_);
    filler_credit_ -= from_credit;
    filler_needed_ -= from_credit;
    skip = static_cast<std::size_t>(std::min<std::uint64_t>(filler_needed_, bytes.size()));
    filler_needed_ -= skip;
  }
  buffer_.insert(buffer_.end(), bytes.begin() + static_cast<std::ptrdiff_t>(skip), bytes.end());
}

void Deframer::compact() {
  // A drained buffer gives its memory back: a process holds hundreds of mostly idle
  // connections, and a kilobyte kept by each is gigabytes at 10,000 processes.
  if (read_pos_ == buffer_.size()) {
    Bytes().swap(buffer_);
    read_pos_ = 0;
    return;
  }
  // Drop consumed bytes once they dominate, so long streams keep a small buffer.
  if (read_pos_ > 4096 && read_pos_ * 2 > buffer_.size()) {
    buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(read_pos_));
    read_pos_ = 0;
  }
}

std::optional<DecodeError> Deframer::parse_header() {
  const std::uint8_t* h = buffer_.data() + read_pos_;
  if (h[0] != kMagic) return DecodeError{"bad magic byte " + std::to_string(h[0])};
  if (h[1] != kWireVersion) return DecodeError{"unsupported version " + std::to_string(h[1])};
  if (!known_type(h[2])) return DecodeError{"unknown frame type " + std::to_string(h[2])};
  if (h[3] != 0) return DecodeError{"unknown flags " + std::to_string(h[3])};
  if (h[6] != 0 || h[7] != 0) return DecodeError{"reserved header bytes are not zero"};
  std::uint64_t length = read_le(h + 20, 4);
  std::uint64_t filler = read_le(h + 24, 8);
  const auto type = static_cast<FrameType>(h[2]);
  if (length > max_payload(type)) {
    return DecodeError{std::string("oversized payload: ") + std::to_string(length) + " bytes > " +
                       std::to_string(max_payload(type)) + " for a " + to_string(type) + " frame"};
  }
  if (filler > kMaxFiller) return DecodeError{"oversized filler: " + std::to_string(filler)};
  if (unauthenticated_ && length > kUnauthenticatedPayload) {
    return DecodeError{"oversized payload before authentication: " + std::to_string(length) +
                       " bytes > " + std::to_string(kUnauthenticatedPayload) + " for a " +
                       to_string(type) + " frame"};
  }
  if (unauthenticated_ && filler > 0)
    return DecodeError{std::string("filler before authentication on a ") + to_string(type) +
                       " frame"};
  Frame f;
  f.type = type;
  f.hops = h[4];
  f.ttl = h[5];
  f.src = static_cast<Rank>(static_cast<std::int32_t>(read_le(h + 8, 4)));
  f.dst = static_cast<Rank>(static_cast<std::int32_t>(read_le(h + 12, 4)));
  f.seq = static_cast<std::uint32_t>(read_le(h + 16, 4));
  // No room is made for the payload here: the announced length is only a claim (see wire.hpp).
  f.filler = filler;
  read_pos_ += kHeaderSize;
  payload_length_ = static_cast<std::uint32_t>(length);
  pending_ = std::move(f);
  filler_needed_ = filler;
  return std::nullopt;
}

std::variant<std::monostate, Frame, DecodeError> Deframer::next() {
  if (failed_) return DecodeError{"stream already failed"};
  if (!pending_) {
    if (buffered() < kHeaderSize) return std::monostate{};
    if (auto error = parse_header()) {
      failed_ = true;
      return *error;
    }
  }
  if (!payload_done_) {
    const std::size_t length = payload_length_;
    if (buffered() < length) return std::monostate{};
    const auto from = buffer_.begin() + static_cast<std::ptrdiff_t>(read_pos_);
    pending_->payload.assign(from, from + static_cast<std::ptrdiff_t>(length));
    read_pos_ += length;
    payload_done_ = true;
  }
  // Filler comes from modelled credit first, then from real stream bytes.
  std::uint64_t from_credit = std::min(filler_credit_, filler_needed_);
  filler_credit_ -= from_credit;
  filler_needed_ -= from_credit;
  std::uint64_t from_stream = std::min<std::uint64_t>(filler_needed_, buffered());
  filler_needed_ -= from_stream;
  read_pos_ += static_cast<std::size_t>(from_stream);
  compact();
  if (filler_needed_ > 0) return std::monostate{};
  Frame done = std::move(*pending_);
  pending_.reset();
  payload_done_ = false;
  return done;
}

std::variant<Frame, DecodeError> decode_one(const Bytes& bytes, std::uint64_t filler) {
  Deframer d;
  d.feed(bytes, filler);
  auto result = d.next();
  if (auto* error = std::get_if<DecodeError>(&result)) return *error;
  if (std::holds_alternative<std::monostate>(result)) {
    return DecodeError{"truncated frame: " + std::to_string(bytes.size()) + " bytes"};
  }
  if (d.buffered() != 0) {
    return DecodeError{std::to_string(d.buffered()) + " bytes after the frame"};
  }
  return std::get<Frame>(std::move(result));
}

}  // namespace tsunagi::wire
