// The multicast workload of paper 002. The master (multicast_series.hpp) sends each message with
// its group bitmap to the group's lowest rank only and takes no further part; the members run the
// multicast among themselves (multicast/member.hpp) and the root tells the master when every ack
// is in. Workers finish at once: their part is to serve multicasts until the run ends, and each
// reports at the shutdown what it received, including any piece that reached it as a non-member.
#include <map>
#include <set>

#include "tsunagi/model/multicast/member.hpp"
#include "workload/multicast_series.hpp"
#include "workload/workloads.hpp"

namespace tsunagi {
namespace {

using namespace multicast;

// A seed the master is still sending: the next segment to go is next - 1 (last first).
struct SeedStream {
  Piece header;  // no content
  Rank root = kNoRank;
  int next = 0;
  Bytes content;  // the whole message when it travels
};

constexpr std::uint64_t kNextTimer = 1;  // interval > 0: the next multicast is due
constexpr std::uint64_t kDeadlineBase = std::uint64_t{1}
                                        << 32;  // + index: that multicast's deadline

class MulticastWorkload final : public Workload {
 public:
  explicit MulticastWorkload(MulticastConfig cfg) : cfg_(std::move(cfg)) {
    thresholds_ = {cfg_.binomial_max_bytes, cfg_.binomial_below_members, cfg_.doubling_max_bytes,
                   cfg_.pipeline_min_bytes};
    segment_setting_ = cfg_.segment_bytes;
  }

  void start(WorkloadContext& ctx) override {
    start_ = ctx.now();
    master_ = master_rank(cfg_, ctx.size());
    if (ctx.rank() != master_) return ctx.finished();
    try {
      series_ = plan_series(cfg_, ctx.size(), master_, ctx.seed());
    } catch (const std::invalid_argument& error) {
      ctx.report("workload", {{"name", "multicast"}, {"verified", false}, {"error", error.what()}});
      return ctx.finished();
    }
    outcomes_.resize(series_.size());
    launch_next(ctx);
  }

  void on_message(WorkloadContext& ctx, Rank src, std::uint32_t tag, const Bytes& body,
                  std::uint64_t filler) override {
    if (tag == kPieceTag) return on_piece(ctx, src, body, filler);
    if (tag == kAckTag) return on_ack(ctx, src, body);
    if (tag == kDoneTag) return on_done(ctx, src, body);
    if (tag == kReceivedTag) return on_received(ctx, src, body);
    note_refused("message with tag " + std::to_string(tag));
  }

  void on_timer(WorkloadContext& ctx, std::uint64_t timer) override {
    if (timer == kNextTimer) return launch_next(ctx);
    const std::size_t index = timer - kDeadlineBase;
    if (index >= outcomes_.size() || outcomes_[index].done || !outcomes_[index].failure.empty())
      return;
    outcomes_[index].failure = "not done within the deadline";
    settle(ctx);
  }

  void on_undeliverable(WorkloadContext& /*ctx*/, Rank dst, std::uint32_t tag,
                        const std::string& reason) override {
    ++undeliverable_;
    note_refused("a message to rank " + std::to_string(dst) + " (tag " + std::to_string(tag) +
                 ") could not be delivered: " + reason);
  }

  void on_shutdown(WorkloadContext& ctx) override {
    ctx.report("multicast_rank", {{"rank", ctx.rank()},
                                  {"pieces_received", pieces_received_},
                                  {"pieces_sent", pieces_sent_},
                                  {"bytes_received", bytes_received_},
                                  {"acks_sent", acks_sent_},
                                  {"frames_at_non_member", frames_at_non_member_},
                                  {"refused", refused_},
                                  {"first_refusal", first_refusal_},
                                  {"undeliverable", undeliverable_},
                                  {"unfinished", members_.size()}});
  }

 private:
  // ---- master

  void launch_next(WorkloadContext& ctx) {
    if (next_ >= series_.size()) return;
    const std::size_t index = next_++;
    const Planned& planned = series_[index];
    Piece seed;
    seed.id = planned.id;
    seed.algorithm = planned.requested;
    seed.phase = Phase::Seed;
    seed.master = master_;
    seed.started_at = ctx.now();
    seed.bytes = planned.bytes;
    seed.real = planned.bytes <= cfg_.verify_bytes_max;
    seed.group = GroupBitmap::of(ctx.size(), planned.members);
    SeedStream stream;
    if (seed.real) {
      stream.content = make_content(seed.id, seed.bytes);
      seed.digest = digest_of(stream.content);
    }
    seed.chunks = seed_segments(ctx, planned);
    stream.root = planned.members.front();
    stream.next = seed.chunks;
    stream.header = std::move(seed);
    auto it = seeds_.emplace(stream.header.id, std::move(stream)).first;
    for (int i = 0; i < kSeedWindow && send_next_segment(ctx, it); ++i) {
    }
    ctx.arm_timer(kDeadlineBase + index, ctx.now() + cfg_.deadline);
    if (cfg_.interval > 0) ctx.arm_timer(kNextTimer, ctx.now() + cfg_.interval);
  }

  // How many segments the seed goes in. A whole-message tree (binomial, topology) sends nothing
  // before the root has it all, and a segmented seed only costs it per-segment latency and
  // receipts (8 MB binomial to 256 on xc30-256: 14.83 ms in 6 KiB segments, 14.39 ms whole), so
  // its seed goes whole. The master works `auto` out as the root will (the same function of the
  // same inputs); the root still decides and copes with a seed in any number of segments.
  int seed_segments(WorkloadContext& ctx, const Planned& planned) const {
    const Algorithm algorithm = choose(planned.requested, planned.bytes, planned.group_size,
                                       !ctx.switch_group_of_rank().empty(), thresholds_)
                                    .algorithm;
    if (algorithm == Algorithm::Binomial || algorithm == Algorithm::Topology) return 1;
    return segment_count(planned.bytes,
                         segment_bytes(planned.bytes, planned.group_size, segment_setting_));
  }

  // The seed's segments, last first (member.hpp); the stream is forgotten once all are sent.
  // Returns whether segments are left.
  bool send_next_segment(WorkloadContext& ctx, std::map<std::uint64_t, SeedStream>::iterator it) {
    SeedStream& stream = it->second;
    Piece piece = stream.header;
    piece.range = {stream.next - 1, stream.next};
    --stream.next;
    if (piece.real) {
      const ByteRange bytes = bytes_of(piece.range, piece.bytes, piece.chunks);
      const auto begin = stream.content.begin() + static_cast<std::ptrdiff_t>(bytes.offset);
      piece.content.assign(begin, begin + static_cast<std::ptrdiff_t>(bytes.length));
    }
    send_piece(ctx, stream.root, piece);
    if (stream.next > 0) return true;
    seeds_.erase(it);
    return false;
  }

  void on_done(WorkloadContext& ctx, Rank src, const Bytes& body) {
    auto decoded = decode_done(body, ctx.size());
    if (auto* rejected = std::get_if<Rejected>(&decoded)) return note_refused(rejected->reason);
    const Done& done = std::get<Done>(decoded);
    const std::size_t index = done.id - 1;
    if (ctx.rank() != master_ || done.id == 0 || index >= series_.size() || outcomes_[index].done ||
        src != series_[index].members.front())
      return note_refused("done for multicast " + std::to_string(done.id) + " from rank " +
                          std::to_string(src));
    Outcome& outcome = outcomes_[index];
    outcome.done = true;
    outcome.result = done;
    const int r = series_[index].group_size;
    if (outcome.failure.empty() && (done.verified != r || done.failed != 0 || done.members != r))
      outcome.failure = std::to_string(done.verified) + " of " + std::to_string(r) +
                        " members verified the message";
    settle(ctx);
  }

  // After a multicast ended (done or failed): the next one, or the end of the series.
  void settle(WorkloadContext& ctx) {
    ++settled_;
    if (cfg_.interval == 0) launch_next(ctx);
    if (settled_ < series_.size() || finished_) return;
    finished_ = true;
    int failed = 0;
    std::string first_failure;
    for (std::size_t i = 0; i < outcomes_.size(); ++i) {
      if (outcomes_[i].done && outcomes_[i].failure.empty()) continue;
      if (failed++ == 0)
        first_failure = "multicast " + std::to_string(i + 1) + ": " +
                        (outcomes_[i].failure.empty() ? "not done" : outcomes_[i].failure);
    }
    ctx.report("multicast", {{"master", master_},
                             {"trim", cfg_.trim},
                             {"series", summarise(series_, outcomes_, cfg_.trim)}});
    nlohmann::json outcome = {{"name", "multicast"},
                              {"makespan_ns", ctx.now() - start_},
                              {"verified", failed == 0 && refused_ == 0},
                              {"multicasts", series_.size()},
                              {"failed", failed}};
    if (failed > 0) outcome["error"] = first_failure;
    if (refused_ > 0) outcome["refused"] = first_refusal_;
    ctx.report("workload", std::move(outcome));
    ctx.finished();
  }

  // ---- members

  void on_piece(WorkloadContext& ctx, Rank src, const Bytes& body, std::uint64_t filler) {
    ++pieces_received_;
    bytes_received_ += body.size() + filler;
    auto decoded = decode_piece(body, filler, ctx.size());
    if (auto* rejected = std::get_if<Rejected>(&decoded)) return note_refused(rejected->reason);
    const Piece& piece = std::get<Piece>(decoded);
    if (!piece.group.contains(ctx.rank())) {
      ++frames_at_non_member_;
      return note_refused("piece of multicast " + std::to_string(piece.id) + " at a non-member");
    }
    if (finished_ids_.count(piece.id) != 0)
      return note_refused("piece of multicast " + std::to_string(piece.id) + " after its end");
    auto it = members_.find(piece.id);
    // The first piece of a multicast here makes the member (a seed comes in segments: only the
    // first one does); a member made from a piece it refuses is forgotten again.
    const bool fresh = it == members_.end();
    if (fresh) {
      it =
          members_
              .emplace(piece.id, Member(ctx.rank(), piece, ctx.switch_group_of_rank(), thresholds_))
              .first;
    }
    std::vector<Outgoing> out;
    it->second.on_piece(src, piece, ctx.now(), out);
    if (!it->second.refused().empty()) {
      note_refused(it->second.refused());
      if (fresh) members_.erase(it);
      return;
    }
    if (fresh && piece.phase == Phase::Seed) trace_plan(ctx, piece, it->second);
    settle_member(ctx, it, out);
  }

  void on_ack(WorkloadContext& ctx, Rank src, const Bytes& body) {
    auto decoded = decode_ack(body, ctx.size());
    if (auto* rejected = std::get_if<Rejected>(&decoded)) return note_refused(rejected->reason);
    const Ack& ack = std::get<Ack>(decoded);
    auto it = members_.find(ack.id);
    if (it == members_.end())
      return note_refused("ack for multicast " + std::to_string(ack.id) + " not in progress here");
    std::vector<Outgoing> out;
    it->second.on_ack(src, ack, ctx.now(), out);
    if (!it->second.refused().empty()) return note_refused(it->second.refused());
    settle_member(ctx, it, out);
  }

  void on_received(WorkloadContext& ctx, Rank src, const Bytes& body) {
    auto decoded = decode_received(body);
    if (auto* rejected = std::get_if<Rejected>(&decoded)) return note_refused(rejected->reason);
    if (ctx.rank() == master_) return on_seed_received(ctx, src, std::get<Received>(decoded).id);
    auto it = members_.find(std::get<Received>(decoded).id);
    if (it == members_.end()) return note_refused("received notice for no multicast in progress");
    std::vector<Outgoing> out;
    it->second.on_received(src, std::get<Received>(decoded), out);
    if (!it->second.refused().empty()) return note_refused(it->second.refused());
    settle_member(ctx, it, out);
  }

  // The root has one more seed segment: the master may send the next one.
  void on_seed_received(WorkloadContext& ctx, Rank src, std::uint64_t id) {
    const std::size_t index = id - 1;
    if (id == 0 || index >= next_ || src != series_[index].members.front())
      return note_refused("received notice for multicast " + std::to_string(id) + " from rank " +
                          std::to_string(src));
    auto it = seeds_.find(id);
    if (it != seeds_.end()) send_next_segment(ctx, it);
  }

  void settle_member(WorkloadContext& ctx, std::map<std::uint64_t, Member>::iterator it,
                     std::vector<Outgoing>& out) {
    for (Outgoing& o : out) {
      if (auto* piece = std::get_if<Piece>(&o.what)) send_piece(ctx, o.to, *piece);
      if (auto* ack = std::get_if<Ack>(&o.what)) {
        ++acks_sent_;
        ctx.send(o.to, kAckTag, encode(*ack));
      }
      if (auto* done = std::get_if<Done>(&o.what)) ctx.send(o.to, kDoneTag, encode(*done));
      if (auto* got = std::get_if<Received>(&o.what)) ctx.send(o.to, kReceivedTag, encode(*got));
    }
    if (!it->second.done()) return;
    finished_ids_.insert(it->first);
    members_.erase(it);
  }

  // The root's decisions: which algorithm, why, and the send tree (parent rank per member).
  void trace_plan(WorkloadContext& ctx, const Piece& seed, const Member& root) {
    ctx.decision("multicast_plan", {{"id", seed.id},
                                    {"requested", to_string(seed.algorithm)},
                                    {"algorithm", to_string(root.algorithm())},
                                    {"why", root.why()},
                                    {"bytes", seed.bytes},
                                    {"members", seed.group.count()},
                                    {"tree_parent", root.tree_parents()}});
  }

  void send_piece(WorkloadContext& ctx, Rank to, const Piece& piece) {
    ++pieces_sent_;
    const std::uint64_t modelled =
        piece.real ? 0 : bytes_of(piece.range, piece.bytes, piece.chunks).length;
    ctx.send(to, kPieceTag, encode(piece), modelled);
  }

  void note_refused(const std::string& why) {
    if (refused_++ == 0) first_refusal_ = why;
  }

  MulticastConfig cfg_;
  Thresholds thresholds_;
  std::uint64_t segment_setting_ = 0;  // 0: automatic (schedule.hpp, segment_bytes)
  TimeNs start_ = 0;
  Rank master_ = kNoRank;
  // master
  std::vector<Planned> series_;
  std::vector<Outcome> outcomes_;
  std::map<std::uint64_t, SeedStream> seeds_;  // seeds with segments still to send
  std::size_t next_ = 0;
  std::size_t settled_ = 0;
  bool finished_ = false;
  // members
  std::map<std::uint64_t, Member> members_;
  std::set<std::uint64_t> finished_ids_;
  std::uint64_t pieces_received_ = 0, pieces_sent_ = 0, bytes_received_ = 0, acks_sent_ = 0;
  std::uint64_t frames_at_non_member_ = 0, refused_ = 0, undeliverable_ = 0;
  std::string first_refusal_;
};

}  // namespace

std::unique_ptr<Workload> make_multicast(const MulticastConfig& cfg) {
  return std::make_unique<MulticastWorkload>(cfg);
}

}  // namespace tsunagi
