// The wire format: a fixed 32-byte header, a payload, and optional filler.
//
//   offset size field
//        0    1 magic 'T' (0x54)
//        1    1 version (kWireVersion)
//        2    1 type (FrameType)
//        3    1 flags (must be 0 in version 1)
//        4    1 hops: incremented by every relay
//        5    1 ttl: decremented by every relay; a frame reaching 0 away from home is dropped
//        6    2 reserved (must be 0)
//        8    4 src rank (signed, -1 = rendezvous)
//       12    4 dst rank (signed, -1 = rendezvous)
//       16    4 sequence number
//       20    4 payload length in bytes (at most kMaxPayload)
//       24    8 filler length: bytes after the payload that carry no information (bulk data a
//               simulator only charges for; a stream backend sends them as zeros)
// All integers little-endian. The decoder rejects anything else with a reason and never throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi::wire {

using Bytes = std::vector<std::uint8_t>;

constexpr std::uint8_t kMagic = 0x54;
constexpr std::uint8_t kWireVersion = 1;
constexpr std::size_t kHeaderSize = 32;
constexpr std::uint32_t kMaxPayload = 64u << 20;              // 64 MiB
constexpr std::uint64_t kMaxFiller = std::uint64_t{1} << 34;  // 16 GiB
constexpr std::uint8_t kDefaultTtl = 16;

enum class FrameType : std::uint8_t {
  Hello = 1,             // first frame on every connection: who I am and why I connected
  Register = 2,          // node -> rendezvous: rank, endpoint, host label
  Directory = 3,         // rendezvous -> node: every rank's endpoint
  RttReport = 4,         // node -> rendezvous: the peers it judged on its own switch
  GroupsMsg = 5,         // rendezvous -> node: the combined switch groups
  RouteRound = 6,        // node -> neighbour: one round of distance-vector routing
  Data = 7,              // application data, relayed hop by hop
  Done = 8,              // node -> rendezvous: my workload finished
  Shutdown = 9,          // rendezvous -> node, relay: everyone finished: report, stop sending, ack
  Goodbye = 10,          // either end of a shortcut: I stop sending here; answer and close
                         // (seq = GoodbyeReason: evicted, or the pair keeps the other one)
  ProbeOrder = 11,       // rendezvous -> node: run a throughput probe to a rank now
  ProbeResult = 12,      // node -> rendezvous: how long that probe's transfer took
  RttOrder = 13,         // rendezvous -> node: measure RTTs to these ranks (scalable inference)
  RttColumn = 14,        // node -> rendezvous: the RTTs it measured
  EndpointQuery = 15,    // node -> rendezvous: where do these ranks listen? (directory on demand)
  EndpointReply = 16,    // rendezvous -> node: their endpoints
  RelayRegister = 17,    // relay -> rendezvous: label, site, endpoint (plan = relay)
  RelayList = 18,        // rendezvous -> relay: every relay; -> node: the relays of its site
  RelayHello = 19,       // first frame on a relay -> relay connection: the initiator's label
  LinkAdvert = 20,       // relay -> relay, flooded: origin's live links and attached ranks
  Undeliverable = 21,    // relay -> the source rank: this data frame cannot be delivered
  Settled = 22,          // node -> rendezvous: my static connects are settled (routing = direct)
  Start = 23,            // rendezvous -> node: everyone settled, start the workload
  PeerUnreachable = 24,  // node -> rendezvous -> node: my static connect to you failed
  ShutdownAck = 25,      // node, relay -> rendezvous: reported; what closes now is expected
  Release = 26,          // rendezvous -> node, relay: everyone acknowledged; leave
  // The handshake that opens every connection of an authenticated run (handshake.hpp):
  AuthChallenge = 27,  // acceptor -> initiator, at once: the acceptor's nonce
  AuthProof = 28,      // initiator -> acceptor: its nonce and a MAC over both nonces and the
                       // first frame that follows (the hello or register)
  AuthAccept = 29,     // acceptor -> initiator: the acceptor's MAC over the same
  // groups = "partition" with windows: each window's rounds run by one of its ranks, so that
  // the rounds' orders, columns and endpoints stay off the rendezvous's link (issue 30).
  WindowOrder = 30,   // rendezvous -> collector: run the rounds over this window's ranks
  WindowGroups = 31,  // collector -> rendezvous: the window's groups and inter-group RTTs
  // protocol.window = "auto": one node at a time measures a peer's path (issue 32). Both have
  // no payload; the header says who (src) measures whom (dst).
  ProbeTurn = 32,       // node -> rendezvous: may I measure dst's path now? (seq 1: I am done)
  ProbeTurnGrant = 33,  // rendezvous -> node: your turn to measure dst's path
};
// The highest type number in use: decoders reject anything above it.
constexpr FrameType kLastFrameType = FrameType::ProbeTurnGrant;
const char* to_string(FrameType type);

struct Frame {
  FrameType type = FrameType::Hello;
  std::uint8_t hops = 0;
  std::uint8_t ttl = kDefaultTtl;
  Rank src = kNoRank;
  Rank dst = kNoRank;
  std::uint32_t seq = 0;
  Bytes payload;
  std::uint64_t filler = 0;
};

// Encodes header + payload (the filler is not materialised; the caller sends frame.filler).
Bytes encode(const Frame& frame);

struct DecodeError {
  std::string reason;
};

// The most payload a frame of `type` may announce. Frames with fixed, small bodies (hello,
// register, done, ...) get a small bound, so a header announcing megabytes for them is refused
// before a byte of it is waited for; the rest may carry up to kMaxPayload.
std::uint32_t max_payload(FrameType type);

// Until a connection's handshake is done (handshake.hpp), every frame on it may announce at most
// this much payload and no filler, whatever its type: the handshake's frames and the first frame
// a proof covers are far smaller, and a stranger cannot make a role keep more (issue 29: 16
// unauthenticated connections sending 64 MiB bodies raised daemons over 1 GB).
constexpr std::uint32_t kUnauthenticatedPayload = 4096;

// Incremental, strict decoder for one connection's byte stream. After an error it stays
// failed: a stream cannot be resynchronised, so the connection must be closed.
//
// Memory follows the bytes that arrived, never the lengths a header announces: a header alone
// allocates nothing for its payload, which is copied out only once all of it is here. A
// connection therefore holds at most one frame's bytes that really arrived (kHeaderSize +
// kMaxPayload at most, plus the chunk being fed), however large the lengths a peer announces.
class Deframer {
 public:
  // Appends stream bytes; `filler_credit` counts filler bytes the backend modelled without
  // delivering them (they follow `bytes` in the stream).
  void feed(const Bytes& bytes, std::uint64_t filler_credit = 0);
  // The next complete frame, nothing yet (std::monostate), or the reason the stream is bad.
  std::variant<std::monostate, Frame, DecodeError> next();
  bool failed() const { return failed_; }
  std::size_t buffered() const { return buffer_.size() - read_pos_; }
  // Headers parsed from now on are held to kUnauthenticatedPayload (true) or to their type's
  // bound (false). The framing (framed_conn.hpp) sets it from the handshake before each frame.
  void set_unauthenticated(bool unauthenticated) { unauthenticated_ = unauthenticated; }

 private:
  std::optional<DecodeError> parse_header();
  void compact();

  Bytes buffer_;
  std::size_t read_pos_ = 0;
  std::uint64_t filler_credit_ = 0;
  std::optional<Frame> pending_;      // header parsed, waiting for payload/filler
  std::uint32_t payload_length_ = 0;  // of the pending frame, as its header announced
  std::uint64_t filler_needed_ = 0;
  bool payload_done_ = false;  // payload copied, filler still outstanding
  bool failed_ = false;
  bool unauthenticated_ = false;
};

// Decodes exactly one frame that must fill `bytes` completely (datagram-style use, tests).
std::variant<Frame, DecodeError> decode_one(const Bytes& bytes, std::uint64_t filler = 0);

}  // namespace tsunagi::wire
