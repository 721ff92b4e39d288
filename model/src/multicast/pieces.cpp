#include "tsunagi/model/multicast/pieces.hpp"

#include <algorithm>

#include "tsunagi/model/codec.hpp"

namespace tsunagi::multicast {
namespace {

constexpr std::uint8_t kPieceVersion = 1;

std::optional<Algorithm> algorithm_from(std::uint8_t raw) {
  if (raw > static_cast<std::uint8_t>(Algorithm::Pipeline)) return std::nullopt;
  return static_cast<Algorithm>(raw);
}

std::string check_piece(const Piece& p) {
  if (p.bytes > kMaxMessageBytes) return "message of " + std::to_string(p.bytes) + " bytes";
  if (p.phase != Phase::Seed && p.algorithm == Algorithm::Auto)
    return "only a seed may leave the algorithm to the root";
  const bool scatter =
      p.algorithm == Algorithm::ScatterRing || p.algorithm == Algorithm::ScatterDoubling;
  const bool segmented = p.phase == Phase::Seed || p.algorithm == Algorithm::Pipeline;
  if (segmented) {
    if (p.chunks < 1 || p.chunks > kMaxSegments ||
        static_cast<std::uint64_t>(p.chunks) > std::max<std::uint64_t>(1, p.bytes))
      return std::to_string(p.chunks) + " segments for a message of " + std::to_string(p.bytes) +
             " bytes";
  } else {
    const int expected_chunks = scatter ? p.group.count() : 1;
    if (p.chunks != expected_chunks)
      return std::to_string(p.chunks) + " chunks where " + std::to_string(expected_chunks) +
             " were due";
  }
  if ((p.phase == Phase::Seed || p.phase == Phase::Segment) && p.range.size() != 1)
    return "a seed or pipeline piece carries one segment";
  if (p.phase == Phase::Segment && p.algorithm != Algorithm::Pipeline)
    return "a pipeline segment in another algorithm";
  if (p.phase == Phase::Tree && p.algorithm == Algorithm::Pipeline)
    return "a tree piece in a pipeline";
  if (p.range.first < 0 || p.range.first >= p.range.last || p.range.last > p.chunks)
    return "chunk range [" + std::to_string(p.range.first) + ", " + std::to_string(p.range.last) +
           ") outside 0.." + std::to_string(p.chunks);
  if ((p.phase == Phase::Ring || p.phase == Phase::Doubling) && !scatter)
    return "an allgather piece of a tree algorithm";
  if (p.phase == Phase::Ring && p.range.size() != 1) return "a ring piece carries one chunk";
  if (p.phase == Phase::Doubling &&
      (p.step < 0 || p.step >= 31 || p.range != doubling_block(p.range.first, p.step)))
    return "a doubling piece must carry its step's aligned block";
  if (p.master < 0 || p.master >= p.group.processes() || p.group.contains(p.master))
    return "master " + std::to_string(p.master) + " is not a non-member rank";
  return "";
}

}  // namespace

Bytes encode(const Piece& p) {
  wire::Writer w;
  w.u8(kPieceVersion);
  w.u64(p.id);
  w.u8(static_cast<std::uint8_t>(p.algorithm));
  w.u8(static_cast<std::uint8_t>(p.phase));
  w.u8(static_cast<std::uint8_t>(p.step));
  w.i32(p.master);
  w.i64(p.started_at);
  w.u64(p.bytes);
  w.u64(p.digest);
  w.u8(p.real ? 1 : 0);
  w.i32(p.chunks);
  w.i32(p.range.first);
  w.i32(p.range.last);
  p.group.encode(w);
  Bytes out = w.take();
  out.insert(out.end(), p.content.begin(), p.content.end());
  return out;
}

std::variant<Piece, Rejected> decode_piece(const Bytes& body, std::uint64_t filler, int processes) {
  wire::Reader r(body);
  Piece p;
  if (r.u8() != kPieceVersion && r.ok()) return Rejected{"unknown piece version"};
  p.id = r.u64();
  const auto algorithm = algorithm_from(r.u8());
  const std::uint8_t phase = r.u8();
  p.step = r.u8();
  p.master = r.i32();
  p.started_at = r.i64();
  p.bytes = r.u64();
  p.digest = r.u64();
  const std::uint8_t real = r.u8();
  p.chunks = r.i32();
  p.range.first = r.i32();
  p.range.last = r.i32();
  if (!r.ok()) return Rejected{"piece header: " + r.error()};
  if (!algorithm) return Rejected{"unknown algorithm"};
  if (phase > static_cast<std::uint8_t>(Phase::Segment)) return Rejected{"unknown phase"};
  if (real > 1) return Rejected{"content flag must be 0 or 1"};
  p.algorithm = *algorithm;
  p.phase = static_cast<Phase>(phase);
  p.real = real == 1;
  std::string error;
  auto group = GroupBitmap::decode(r, processes, error);
  if (!group) return Rejected{error};
  p.group = std::move(*group);
  if (std::string why = check_piece(p); !why.empty()) return Rejected{why};
  const ByteRange bytes = bytes_of(p.range, p.bytes, p.chunks);
  const std::uint64_t carried = r.remaining();
  if (p.real ? (carried != bytes.length || filler != 0) : (carried != 0 || filler != bytes.length))
    return Rejected{"piece carries " + std::to_string(carried) + " bytes and " +
                    std::to_string(filler) + " modelled for a range of " +
                    std::to_string(bytes.length)};
  p.content.assign(body.end() - static_cast<std::ptrdiff_t>(carried), body.end());
  return p;
}

Bytes encode(const Ack& a) {
  wire::Writer w;
  w.u64(a.id);
  w.i64(a.last_delivery);
  w.i32(a.verified);
  w.i32(a.failed);
  return w.take();
}

std::variant<Ack, Rejected> decode_ack(const Bytes& body, int processes) {
  wire::Reader r(body);
  Ack a;
  a.id = r.u64();
  a.last_delivery = r.i64();
  a.verified = r.i32();
  a.failed = r.i32();
  if (!r.finish("ack")) return Rejected{r.error()};
  if (a.verified < 0 || a.failed < 0 || a.verified + a.failed > processes)
    return Rejected{"ack counts members that cannot exist"};
  return a;
}

Bytes encode(const Done& d) {
  wire::Writer w;
  w.u64(d.id);
  w.u8(static_cast<std::uint8_t>(d.algorithm));
  w.i32(d.members);
  w.i64(d.started_at);
  w.i64(d.completed_at);
  w.i64(d.last_delivery);
  w.i32(d.verified);
  w.i32(d.failed);
  w.i64(d.root_received_at);
  return w.take();
}

std::variant<Done, Rejected> decode_done(const Bytes& body, int processes) {
  wire::Reader r(body);
  Done d;
  d.id = r.u64();
  const auto algorithm = algorithm_from(r.u8());
  d.members = r.i32();
  d.started_at = r.i64();
  d.completed_at = r.i64();
  d.last_delivery = r.i64();
  d.verified = r.i32();
  d.failed = r.i32();
  d.root_received_at = r.i64();
  if (!r.finish("done")) return Rejected{r.error()};
  if (!algorithm || *algorithm == Algorithm::Auto) return Rejected{"done names no algorithm"};
  d.algorithm = *algorithm;
  if (d.members < 1 || d.members > processes || d.verified < 0 || d.failed < 0 ||
      d.verified + d.failed > d.members)
    return Rejected{"done counts members that cannot exist"};
  if (d.root_received_at > d.completed_at)
    return Rejected{"done says the root received the message after it completed"};
  return d;
}

Bytes encode(const Received& received) {
  wire::Writer w;
  w.u64(received.id);
  return w.take();
}

std::variant<Received, Rejected> decode_received(const Bytes& body) {
  wire::Reader r(body);
  Received received{r.u64()};
  if (!r.finish("received")) return Rejected{r.error()};
  return received;
}

Bytes make_content(std::uint64_t id, std::uint64_t bytes) {
  Bytes out(bytes);
  std::uint64_t state = id * 0x9e3779b97f4a7c15ull + 1;
  for (std::uint64_t i = 0; i < bytes; i += 8) {
    // One splitmix64 step per 8 bytes: cheap, and different for every id.
    state += 0x9e3779b97f4a7c15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    for (std::uint64_t k = 0; k < 8 && i + k < bytes; ++k)
      out[i + k] = static_cast<std::uint8_t>(z >> (8 * k));
  }
  return out;
}

std::uint64_t digest_of(const Bytes& content) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::uint8_t byte : content) hash = (hash ^ byte) * 0x100000001b3ull;
  return hash;
}

}  // namespace tsunagi::multicast
