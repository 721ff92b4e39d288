#include "tsunagi/model/multicast/member.hpp"

#include <algorithm>
#include <stdexcept>

namespace tsunagi::multicast {
namespace {

bool is_scatter(Algorithm algorithm) {
  return algorithm == Algorithm::ScatterRing || algorithm == Algorithm::ScatterDoubling;
}

// Group ids of the members in logical order; a rank without a known group is a group alone.
std::vector<int> groups_of_members(const std::vector<Rank>& members, const GroupOfRank& group_of) {
  std::vector<int> out;
  out.reserve(members.size());
  for (Rank rank : members)
    out.push_back(static_cast<std::size_t>(rank) < group_of.size() ? group_of[rank] : -1 - rank);
  return out;
}

}  // namespace

Member::Member(Rank self, const Piece& first, const GroupOfRank& group_of,
               const Thresholds& thresholds)
    : self_(self), header_(first), members_(first.group.members()) {
  header_.content.clear();
  logical_ = first.group.logical_of(self);
  if (logical_ < 0) throw std::invalid_argument("rank is not a member of this multicast");
  const int p = members();
  if (first.phase == Phase::Seed) {
    const Choice choice = choose(first.algorithm, first.bytes, p, !group_of.empty(), thresholds);
    algorithm_ = choice.algorithm;
    why_ = choice.why;
  } else {
    algorithm_ = first.algorithm;
  }
  header_.algorithm = algorithm_;
  if (first.phase == Phase::Seed) {
    seed_segments_ = first.chunks;
    seed_held_.assign(static_cast<std::size_t>(seed_segments_), false);
  }
  // A pipeline keeps the master's segments: the seed's segment j is the chain's segment j.
  header_.chunks = is_scatter(algorithm_) ? p : is_pipeline() ? first.chunks : 1;
  tree_ = algorithm_ == Algorithm::Topology ? topology_tree(groups_of_members(members_, group_of))
                                            : binomial_tree(p);
  held_.assign(static_cast<std::size_t>(header_.chunks), false);
  if (header_.real) content_.assign(header_.bytes, 0);
  const int steps = algorithm_ == Algorithm::ScatterDoubling ? doubling_steps(p) : 0;
  doubling_sent_.assign(static_cast<std::size_t>(steps), false);
  doubling_received_.assign(static_cast<std::size_t>(steps), false);
  allgather_expected_ = algorithm_ == Algorithm::ScatterRing ? p - 1 : steps;
  acks_pending_ = static_cast<int>(tree_.children[logical_].size());
  child_acked_.assign(static_cast<std::size_t>(p), false);
}

std::vector<Rank> Member::tree_parents() const {
  std::vector<Rank> out;
  for (std::size_t v = 0; v < members_.size(); ++v) {
    const int parent = is_pipeline() ? static_cast<int>(v) - 1 : tree_.parent[v];
    out.push_back(parent < 0 ? kNoRank : members_[parent]);
  }
  return out;
}

void Member::on_piece(Rank from, const Piece& piece, TimeNs now, std::vector<Outgoing>& out) {
  refused_ = misfit(from, piece);
  if (!refused_.empty()) return;
  store(piece);
  const int p = members();
  if (piece.phase == Phase::Seed && seed_segments_ > 1) out.push_back({from, Received{header_.id}});
  if (piece.phase == Phase::Segment || (piece.phase == Phase::Seed && is_pipeline())) {
    forward_segment(piece.range, out);
  } else if (piece.phase == Phase::Seed || piece.phase == Phase::Tree) {
    tree_piece_seen_ = true;
    if (piece.phase == Phase::Tree) out.push_back({from, Received{header_.id}});
    send_to_next_child(out);
  } else if (piece.phase == Phase::Ring) {
    ++allgather_received_;
    // A chunk goes round once: it stops before it would reach the member it started from.
    if ((logical_ + 1) % p != piece.range.first) ring_backlog_.push_back(piece.range);
  } else {
    ++allgather_received_;
    doubling_received_[piece.step] = true;
  }
  allgather(out);
  maybe_finish(now, out);
}

void Member::on_received(Rank from, const Received& received, std::vector<Outgoing>& out) {
  const auto& children = tree_.children[logical_];
  if (received.id != header_.id || !awaiting_receipt_ ||
      from != members_[children[next_child_ - 1]]) {
    refused_ = "received notice from rank " + std::to_string(from) + ", not the child last served";
    return;
  }
  refused_.clear();
  awaiting_receipt_ = false;
  send_to_next_child(out);
  allgather(out);
}

void Member::on_ack(Rank from, const Ack& ack, TimeNs now, std::vector<Outgoing>& out) {
  const int child = header_.group.logical_of(from);
  const auto& children = tree_.children[logical_];
  if (ack.id != header_.id || child < 0 ||
      std::find(children.begin(), children.end(), child) == children.end()) {
    refused_ = "ack from rank " + std::to_string(from) + ", not a child in the send tree";
    return;
  }
  if (child_acked_[child]) {
    refused_ = "a second ack from rank " + std::to_string(from);
    return;
  }
  refused_.clear();
  child_acked_[child] = true;
  --acks_pending_;
  verified_ += ack.verified;
  failed_ += ack.failed;
  last_delivery_ = std::max(last_delivery_, ack.last_delivery);
  maybe_finish(now, out);
}

// Why `piece` from `from` has no place in this member's schedule ("" when it has one).
std::string Member::misfit(Rank from, const Piece& piece) const {
  if (piece.id != header_.id || !(piece.group == header_.group) || piece.bytes != header_.bytes ||
      piece.digest != header_.digest || piece.real != header_.real ||
      piece.master != header_.master || piece.started_at != header_.started_at)
    return "piece disagrees with the first piece of multicast " + std::to_string(header_.id);
  if (acked_) return "piece after this member's part was over";
  if (piece.phase == Phase::Seed) return misfit_seed(from, piece);
  if (piece.algorithm != algorithm_ || piece.chunks != header_.chunks)
    return "piece names another algorithm than the root chose";
  if (piece.phase == Phase::Segment) {
    if (logical_ == 0 || from != members_[logical_ - 1])
      return "pipeline segment not from the member before this one";
    if (held_[piece.range.first]) return "a second copy of a pipeline segment";
    return "";
  }
  if (piece.phase == Phase::Tree) {
    const int parent = tree_.parent[logical_];
    if (parent < 0 || from != members_[parent]) return "tree piece not from the parent";
    if (tree_piece_seen_) return "a second tree piece";
    const ChunkRange due =
        header_.chunks == 1 ? ChunkRange{0, 1} : binomial_subtree(logical_, members());
    if (piece.range != due) return "tree piece with chunks this member's subtree does not hold";
    return "";
  }
  return misfit_allgather(from, piece);
}

std::string Member::misfit_seed(Rank from, const Piece& piece) const {
  if (logical_ != 0 || from != header_.master) return "a seed goes from the master to the root";
  if (seed_held_.empty()) return "a seed after the multicast began without one";
  if (piece.chunks != seed_segments_) return "seed segments of another size than the first";
  if (seed_held_[piece.range.first]) return "a second copy of a seed segment";
  return "";
}

std::string Member::misfit_allgather(Rank from, const Piece& piece) const {
  const int p = members();
  if (piece.phase == Phase::Ring) {
    if (algorithm_ != Algorithm::ScatterRing) return "ring piece in a multicast without a ring";
    if (from != members_[(logical_ + p - 1) % p]) return "ring piece not from the left neighbour";
    if (piece.range.first == logical_) return "ring piece carrying this member's own chunk";
    if (allgather_received_ >= allgather_expected_) return "more ring pieces than members";
    return "";
  }
  if (algorithm_ != Algorithm::ScatterDoubling) return "doubling piece in another algorithm";
  if (piece.step >= static_cast<int>(doubling_received_.size()) || doubling_received_[piece.step])
    return "doubling piece of a step already done or never due";
  const int partner = doubling_partner(logical_, piece.step);
  if (from != members_[partner] || piece.range != doubling_block(partner, piece.step))
    return "doubling piece not the partner's block of its step";
  return "";
}

void Member::store(const Piece& piece) {
  if (piece.phase == Phase::Seed) return store_seed(piece);
  const ChunkRange range = piece.range;
  for (int c = range.first; c < range.last; ++c) {
    if (!held_[c]) ++held_count_;
    held_[c] = true;
  }
  if (header_.real) {
    const ByteRange bytes = bytes_of(piece.range, header_.bytes, piece.chunks);
    std::copy(piece.content.begin(), piece.content.end(),
              content_.begin() + static_cast<std::ptrdiff_t>(bytes.offset));
  }
}

// The root cuts the message its own way once the seed is whole; a pipeline cuts it as the seed.
void Member::store_seed(const Piece& piece) {
  seed_held_[piece.range.first] = true;
  ++seed_held_count_;
  if (header_.real) {
    const ByteRange bytes = bytes_of(piece.range, header_.bytes, seed_segments_);
    std::copy(piece.content.begin(), piece.content.end(),
              content_.begin() + static_cast<std::ptrdiff_t>(bytes.offset));
  }
  if (is_pipeline()) {
    held_[piece.range.first] = true;
    ++held_count_;
  } else if (seed_complete()) {
    held_.assign(held_.size(), true);
    held_count_ = header_.chunks;
  }
}

// Whether the seed segments in hand hold every byte of `range` (in the root's own chunks).
bool Member::seed_covers(ChunkRange range) const {
  const ByteRange bytes = bytes_of(range, header_.bytes, header_.chunks);
  if (bytes.length == 0 || seed_complete()) return true;
  const std::uint64_t segment = bytes_of({0, 1}, header_.bytes, seed_segments_).length;
  const auto first = static_cast<std::size_t>(bytes.offset / segment);
  const auto last = static_cast<std::size_t>((bytes.offset + bytes.length - 1) / segment);
  for (std::size_t s = first; s <= last; ++s)
    if (!seed_held_[s]) return false;
  return true;
}

// The pipeline: each segment goes on to the next member of the chain as soon as it is here.
void Member::forward_segment(ChunkRange range, std::vector<Outgoing>& out) {
  if (logical_ + 1 < members())
    out.push_back({members_[logical_ + 1], piece_for(Phase::Segment, range, 0)});
}

bool Member::holds(ChunkRange range) const {
  for (int c = range.first; c < range.last; ++c)
    if (!held_[c]) return false;
  return true;
}

// At the root a child is served once the seed segments that hold its range are in.
void Member::send_to_next_child(std::vector<Outgoing>& out) {
  const auto& children = tree_.children[logical_];
  if (awaiting_receipt_ || next_child_ >= children.size()) return;
  const int child = children[next_child_];
  const ChunkRange range =
      header_.chunks == 1 ? ChunkRange{0, 1} : binomial_subtree(child, members());
  if (logical_ == 0 && !seed_covers(range)) return;
  ++next_child_;
  out.push_back({members_[child], piece_for(Phase::Tree, range, 0)});
  awaiting_receipt_ = true;
}

// The scatter is over for this member: it holds its subtree's chunks and every child has its
// own (the last one said Received).
bool Member::tree_part_done() const {
  return tree_piece_seen_ && next_child_ >= tree_.children[logical_].size() && !awaiting_receipt_ &&
         (logical_ != 0 || seed_complete());
}

// This member's part of the allgather starts when its part of the scatter is over, as in MPICH
// (scatter, then allgather). Starting as soon as a chunk was at hand let the ring's 1/r pieces
// share the links of the scatter's larger ones still on their way to the same members, and
// 8 MB to 8 members took 3.9 ms from the root instead of SMPI's 2.8 ms. Ring pieces that
// arrive before are passed on afterwards, in the order they came.
void Member::allgather(std::vector<Outgoing>& out) {
  if (!tree_part_done()) return;
  const int p = members();
  const Rank right = members_[(logical_ + 1) % p];
  if (algorithm_ == Algorithm::ScatterRing && !ring_started_ && p > 1) {
    ring_started_ = true;
    out.push_back({right, piece_for(Phase::Ring, ChunkRange{logical_, logical_ + 1}, 0)});
  }
  for (const ChunkRange& range : ring_backlog_)
    out.push_back({right, piece_for(Phase::Ring, range, 0)});
  ring_backlog_.clear();
  for (std::size_t step = 0; step < doubling_sent_.size(); ++step) {
    const int k = static_cast<int>(step);
    const ChunkRange block = doubling_block(logical_, k);
    if (doubling_sent_[step] || !holds(block)) continue;
    doubling_sent_[step] = true;
    out.push_back({members_[doubling_partner(logical_, k)], piece_for(Phase::Doubling, block, k)});
  }
}

void Member::maybe_finish(TimeNs now, std::vector<Outgoing>& out) {
  if (acked_) return;
  if (!delivered_at_ && held_count_ == header_.chunks) {
    delivered_at_ = now;
    content_ok_ = !header_.real || digest_of(content_) == header_.digest;
  }
  if (!delivered_at_ || allgather_received_ < allgather_expected_ || acks_pending_ > 0) return;
  acked_ = true;
  (content_ok_ ? verified_ : failed_) += 1;
  last_delivery_ = std::max(last_delivery_, *delivered_at_);
  Bytes().swap(content_);  // the message has been checked and passed on
  if (logical_ == 0) {
    out.push_back({header_.master, Done{header_.id, algorithm_, members(), header_.started_at, now,
                                        last_delivery_, verified_, failed_, *delivered_at_}});
    return;
  }
  out.push_back(
      {members_[tree_.parent[logical_]], Ack{header_.id, last_delivery_, verified_, failed_}});
}

Piece Member::piece_for(Phase phase, ChunkRange range, int step) const {
  Piece piece = header_;
  piece.phase = phase;
  piece.range = range;
  piece.step = step;
  if (header_.real) {
    const ByteRange bytes = bytes_of(range, header_.bytes, header_.chunks);
    const auto begin = content_.begin() + static_cast<std::ptrdiff_t>(bytes.offset);
    piece.content.assign(begin, begin + static_cast<std::ptrdiff_t>(bytes.length));
  }
  return piece;
}

}  // namespace tsunagi::multicast
