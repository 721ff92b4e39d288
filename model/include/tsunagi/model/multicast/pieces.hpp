// What multicast members send each other over the overlay (workload messages, one tag each):
// a Piece carries the group bitmap and a range of the message's chunks; an Ack climbs the send
// tree; the root's Done tells the master the multicast is over (measurement only: the master
// takes no part in the multicast itself). Decoders check every field a peer could get wrong.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "tsunagi/model/io.hpp"  // Bytes
#include "tsunagi/model/multicast/group_bitmap.hpp"
#include "tsunagi/model/multicast/schedule.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi::multicast {

// Seed: master -> root (one segment of the message, the algorithm as requested; the master sends
// the segments last first, see member.hpp); Tree: down the send tree (the whole message or a
// subtree's chunks); Ring / Doubling: the allgather after a scatter; Segment: one segment of the
// pipeline, from a member to the next one in the chain.
enum class Phase : std::uint8_t { Seed, Tree, Ring, Doubling, Segment };

// The most segments a message may be cut into (16 GiB in segments of 4 KiB).
constexpr int kMaxSegments = 1 << 22;

// The largest message a piece may announce (1 TiB): a bound for garbage, not a buffer size.
constexpr std::uint64_t kMaxMessageBytes = std::uint64_t{1} << 40;

struct Piece {
  std::uint64_t id = 0;
  Algorithm algorithm = Algorithm::Auto;
  Phase phase = Phase::Seed;
  int step = 0;  // doubling step
  Rank master = kNoRank;
  TimeNs started_at = 0;     // when the master sent the seed
  std::uint64_t bytes = 0;   // the whole message
  std::uint64_t digest = 0;  // of the whole message's content; 0 when modelled
  bool real = false;         // the content travels (else the range is modelled filler)
  // Seed and pipeline: the segment count; whole-message trees: 1; scatter: the member count.
  int chunks = 1;
  ChunkRange range{0, 1};
  GroupBitmap group;
  Bytes content;  // the range's bytes when real, else empty
};

struct Ack {
  std::uint64_t id = 0;
  TimeNs last_delivery = 0;  // the latest time a member of the subtree had the whole message
  int verified = 0;          // members of the subtree whose message checked out
  int failed = 0;
};

// A member got its tree piece: its parent may send to its next child. The root also says it for
// every seed segment, so that the master keeps only a few segments in flight (member.hpp). A parent
// serves its children one after the other, farthest subtree first (paper 002 eq. 6 numbers the
// steps), as a blocking MPI_Send would; sent all at once they would share the parent's link and the
// first subtree would start last.
struct Received {
  std::uint64_t id = 0;
};

struct Done {
  std::uint64_t id = 0;
  Algorithm algorithm = Algorithm::Binomial;  // as the root chose it
  int members = 0;
  TimeNs started_at = 0;
  TimeNs completed_at = 0;  // the root had every ack
  TimeNs last_delivery = 0;
  int verified = 0;
  int failed = 0;
  // The root held the whole message (on the root's clock, as completed_at): the time after it
  // is what an MPI_Bcast from a root that already has the data would take.
  TimeNs root_received_at = 0;
};

// Workload tags of the three (tags below 0x100 are other workloads').
constexpr std::uint32_t kPieceTag = 0x4d430001;
constexpr std::uint32_t kAckTag = 0x4d430002;
constexpr std::uint32_t kDoneTag = 0x4d430003;
constexpr std::uint32_t kReceivedTag = 0x4d430004;

Bytes encode(const Piece& piece);
Bytes encode(const Ack& ack);
Bytes encode(const Done& done);
Bytes encode(const Received& received);

struct Rejected {
  std::string reason;
};
// `processes` is the run's size; `filler` the modelled bytes that came with the body, which must
// be the range's length exactly when the piece is not real.
std::variant<Piece, Rejected> decode_piece(const Bytes& body, std::uint64_t filler, int processes);
std::variant<Ack, Rejected> decode_ack(const Bytes& body, int processes);
std::variant<Done, Rejected> decode_done(const Bytes& body, int processes);
std::variant<Received, Rejected> decode_received(const Bytes& body);

// The content of multicast `id`: `bytes` bytes of a pattern anyone can regenerate, and its digest
// (FNV-1a, 64 bit).
Bytes make_content(std::uint64_t id, std::uint64_t bytes);
std::uint64_t digest_of(const Bytes& content);

}  // namespace tsunagi::multicast
