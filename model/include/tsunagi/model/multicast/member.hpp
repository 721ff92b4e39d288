// One member's part in one multicast: what it forwards when a piece arrives, when it acks, and
// (at the root) when the multicast is over. Pure: it is handed pieces and acks with the time
// and appends what to send; the multicast workload (model/src/workload/multicast.cpp) moves
// them over the overlay. Every member builds the same schedule from the bitmap alone.
//
// The seed comes in segments (schedule.hpp, segment_bytes), last segment first: the root's
// first child in a scatter is due the second half of the message, so it is served once that
// half is in, not the whole message; a pipeline passes each segment on at once. The root says
// Received to the master for every seed segment, and the master keeps kSeedWindow segments in
// flight: sent all at once they would leave in large batches (a simulator's stream sends what
// is queued together, TCP fills its segments), and every later hop would carry the batches.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "tsunagi/model/multicast/pieces.hpp"
#include "tsunagi/model/multicast/schedule.hpp"

namespace tsunagi::multicast {

struct Outgoing {
  Rank to = kNoRank;
  std::variant<Piece, Ack, Done, Received> what;
};

// The switch group of each rank (any ids; empty when none are known). The topology tree reads
// it; the root reads whether it is there.
using GroupOfRank = std::vector<int>;

// Seed segments the master sends before the root's first Received. On xc30-256 (8 MB to 256,
// pipeline, 6 KiB segments) 1 took 2.83 ms, 2 took 2.42 ms, 3 took 2.62 ms (docs/multicast.md).
constexpr int kSeedWindow = 2;

class Member {
 public:
  // `first`: the first piece this rank received of the multicast (the seed at the root).
  // Only the root resolves the requested algorithm (schedule.hpp, choose); the others follow
  // the algorithm their pieces name. Throws std::invalid_argument when `self` is no member.
  Member(Rank self, const Piece& first, const GroupOfRank& group_of, const Thresholds& thresholds);

  // A piece or an ack from rank `from`. One that does not fit the schedule (wrong sender, a
  // second copy, a range this member is not due) is refused: nothing changes and refused() says
  // why.
  void on_piece(Rank from, const Piece& piece, TimeNs now, std::vector<Outgoing>& out);
  void on_ack(Rank from, const Ack& ack, TimeNs now, std::vector<Outgoing>& out);
  void on_received(Rank from, const Received& received, std::vector<Outgoing>& out);

  // Every duty done (message held and checked, allgather over, acks in, own ack sent).
  bool done() const { return acked_; }
  bool is_root() const { return logical_ == 0; }
  Algorithm algorithm() const { return algorithm_; }
  const std::string& why() const { return why_; }
  // The send tree as ranks: parent rank of each member (-1 for the root), for the root's trace.
  std::vector<Rank> tree_parents() const;
  // Why the last piece was not accepted ("" when it was).
  const std::string& refused() const { return refused_; }

 private:
  std::string misfit(Rank from, const Piece& piece) const;
  std::string misfit_allgather(Rank from, const Piece& piece) const;
  std::string misfit_seed(Rank from, const Piece& piece) const;
  void store(const Piece& piece);
  void store_seed(const Piece& piece);
  bool holds(ChunkRange range) const;
  bool seed_covers(ChunkRange range) const;
  bool seed_complete() const { return seed_held_count_ == seed_segments_; }
  bool is_pipeline() const { return algorithm_ == Algorithm::Pipeline; }
  void forward_segment(ChunkRange range, std::vector<Outgoing>& out);
  int members() const { return static_cast<int>(members_.size()); }
  void send_to_next_child(std::vector<Outgoing>& out);
  bool tree_part_done() const;
  void allgather(std::vector<Outgoing>& out);
  void maybe_finish(TimeNs now, std::vector<Outgoing>& out);
  Piece piece_for(Phase phase, ChunkRange range, int step) const;

  Rank self_;
  Piece header_;  // id, group, sizes, algorithm as resolved; no content
  std::vector<Rank> members_;
  int logical_ = -1;
  Algorithm algorithm_ = Algorithm::Binomial;
  std::string why_;
  SendTree tree_;          // pipeline: the binomial tree the acks climb (segments go v -> v + 1)
  int seed_segments_ = 1;  // root: how the master cut the seed
  std::vector<bool> seed_held_;
  int seed_held_count_ = 0;
  std::vector<bool> held_;
  int held_count_ = 0;
  Bytes content_;
  bool tree_piece_seen_ = false;
  std::size_t next_child_ = 0;     // children are served in order, one at a time
  bool awaiting_receipt_ = false;  // the last child served has not said Received yet
  bool ring_started_ = false;
  std::vector<ChunkRange> ring_backlog_;  // ring pieces to pass on, in the order they came
  std::vector<bool> doubling_sent_;
  std::vector<bool> doubling_received_;
  std::vector<bool> child_acked_;
  int allgather_expected_ = 0;
  int allgather_received_ = 0;
  int acks_pending_ = 0;
  std::optional<TimeNs> delivered_at_;
  bool content_ok_ = false;
  TimeNs last_delivery_ = 0;
  int verified_ = 0;
  int failed_ = 0;
  bool acked_ = false;
  std::string refused_;
};

}  // namespace tsunagi::multicast
