// Integer sort in the style of NPB IS, over point-to-point messages (paper 000 §4.2 replaces
// MPI collectives the same way). Per iteration:
//   bucket count (modelled CPU) -> histogram to rank 0 -> rank 0 sums and sends every rank the
//   bucket ranges that balance the keys -> all-to-all exchange of keys -> local sort (modelled).
// After the last iteration every rank really sorts what it holds and sends rank 0 a summary;
// rank 0 checks the result is globally sorted and a permutation of the input.
#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "tsunagi/model/codec.hpp"
#include "tsunagi/model/rng.hpp"
#include "workload/intsort_check.hpp"
#include "workload/workloads.hpp"

namespace tsunagi {
namespace {

constexpr std::uint32_t kHistogram = 10, kSplits = 11, kKeys = 12, kSummary = 13;
constexpr std::uint64_t kBucketTask = 1, kSortTask = 2;
constexpr std::uint32_t kMaxBuckets = 1024;

struct Pending {  // messages of one iteration that arrived before this rank needed them
  std::vector<std::pair<Rank, Bytes>> histograms, keys;
  std::optional<Bytes> splits;
};

class IntSort final : public Workload {
 public:
  explicit IntSort(IntSortConfig cfg) : cfg_(cfg) {}

  void start(WorkloadContext& ctx) override {
    p_ = ctx.size();
    buckets_ = std::max<std::uint32_t>(1, std::min(kMaxBuckets, cfg_.max_key));
    generate_keys(ctx);
    summaries_.resize(static_cast<std::size_t>(p_));
    start_ = ctx.now();
    begin_iteration(ctx);
  }

  void on_message(WorkloadContext& ctx, Rank src, std::uint32_t tag, const Bytes& body,
                  std::uint64_t) override {
    if (auto why = malformed(src, tag, body)) {
      // A peer's message this rank cannot use: said so, and the sort goes on without it.
      ctx.decision("message_rejected", {{"src", src}, {"tag", tag}, {"reason", *why}});
      return;
    }
    wire::Reader r(body);
    std::uint32_t iter = r.u32();
    Pending& p = pending_[iter];
    if (tag == kHistogram) p.histograms.emplace_back(src, body);
    if (tag == kKeys) p.keys.emplace_back(src, body);
    if (tag == kSplits) p.splits = body;
    if (tag == kSummary) summaries_[static_cast<std::size_t>(src)] = read_summary(body);
    if (tag == kSummary && ++summaries_in_ == p_) finish_verification(ctx);
    progress(ctx);
  }

  void on_compute_done(WorkloadContext& ctx, std::uint64_t task) override {
    if (task == kBucketTask) send_histogram(ctx);
    if (task == kSortTask) end_iteration(ctx);
  }

 private:
  // Why a message cannot be used, or nothing. Every index the sort takes from a message is
  // checked here first: a short splits body once made send_keys write past its bucket table
  // (issue 17, found by fuzzing).
  std::optional<std::string> malformed(Rank src, std::uint32_t tag, const Bytes& body) const {
    const auto p = static_cast<std::size_t>(p_);
    if (src < 0 || src >= p_) return "unknown source rank";
    if (body.size() < 4) return "no iteration number";
    switch (tag) {
      case kHistogram:
        if (body.size() != 4 + 4 * std::size_t{buckets_}) return "histogram of the wrong size";
        return std::nullopt;
      case kSplits:
        if (src != 0) return "splits come from rank 0 only";
        if (body.size() != 4 + 4 * (p + 1)) return "splits of the wrong size";
        return bad_splits(body);
      case kKeys: {
        wire::Reader r(body);
        r.u32();
        const std::uint32_t n = r.u32();
        if (!r.ok() || body.size() != 8 + 4 * std::size_t{n}) return "keys of the wrong size";
        return std::nullopt;
      }
      case kSummary:
        if (!read_summary(body).present) return "unreadable summary";
        return std::nullopt;
      default:
        return "unknown tag";
    }
  }

  // Splits must start at bucket 0, never go down and end at the bucket count, so every bucket
  // has exactly one owner.
  std::optional<std::string> bad_splits(const Bytes& body) const {
    wire::Reader r(body);
    r.u32();
    std::uint32_t previous = 0;
    for (int d = 0; d <= p_; ++d) {
      const std::uint32_t first = r.u32();
      if ((d == 0 && first != 0) || first < previous || first > buckets_ ||
          (d == p_ && first != buckets_))
        return "splits out of order";
      previous = first;
    }
    return std::nullopt;
  }

  void generate_keys(WorkloadContext& ctx) {
    auto total = cfg_.total_keys;
    auto rank = static_cast<std::uint64_t>(ctx.rank());
    std::uint64_t count = total / static_cast<std::uint64_t>(p_) +
                          (rank < total % static_cast<std::uint64_t>(p_) ? 1 : 0);
    Rng rng(derive_seed(ctx.seed(), 0x15000000 + rank));
    // NPB IS draws each key as the sum of four uniforms: a bell-shaped distribution.
    std::uint64_t quarter = std::max<std::uint64_t>(1, cfg_.max_key / 4);
    keys_.resize(count);
    for (auto& k : keys_) {
      std::uint64_t sum = 0;
      for (int i = 0; i < 4; ++i) sum += rng.uniform(quarter);
      k = static_cast<std::uint32_t>(std::min<std::uint64_t>(sum, cfg_.max_key - 1));
    }
  }

  std::uint32_t bucket_of(std::uint32_t key) const {
    return static_cast<std::uint32_t>(std::uint64_t{key} * buckets_ / cfg_.max_key);
  }

  void begin_iteration(WorkloadContext& ctx) {
    // Like NPB IS, rank 0 changes two keys per iteration so no two iterations are identical.
    auto i = static_cast<std::size_t>(iteration_);
    auto step = static_cast<std::size_t>(cfg_.iterations);
    if (ctx.rank() == 0 && i + step < keys_.size()) {
      keys_[i] = static_cast<std::uint32_t>(i % cfg_.max_key);
      keys_[i + step] = static_cast<std::uint32_t>((cfg_.max_key - 1 - i % cfg_.max_key));
    }
    ctx.compute(kBucketTask, static_cast<TimeNs>(keys_.size()) * cfg_.compute_ns_per_key);
  }

  void send_histogram(WorkloadContext& ctx) {
    std::vector<std::uint32_t> hist(buckets_, 0);
    for (auto k : keys_) ++hist[bucket_of(k)];
    wire::Writer w;
    w.u32(iter());
    for (auto c : hist) w.u32(c);
    ctx.send(0, kHistogram, w.take());
  }

  // Moves this rank as far as the messages it holds allow.
  void progress(WorkloadContext& ctx) {
    Pending& p = pending_[iter()];
    if (ctx.rank() == 0 && !splits_sent_ && static_cast<int>(p.histograms.size()) == p_) {
      splits_sent_ = true;
      send_splits(ctx, p.histograms);
    }
    if (p.splits && !keys_sent_) {
      keys_sent_ = true;
      send_keys(ctx, *p.splits);
    }
    if (!sorting_ && keys_sent_ && static_cast<int>(p.keys.size()) == p_) {
      sorting_ = true;
      received_ = 0;
      for (const auto& [src, body] : p.keys) received_ += (body.size() - 8) / 4;
      ctx.compute(kSortTask, static_cast<TimeNs>(received_) * cfg_.compute_ns_per_key);
    }
  }

  void send_splits(WorkloadContext& ctx, const std::vector<std::pair<Rank, Bytes>>& hists) {
    std::vector<std::uint64_t> total(buckets_, 0);
    for (const auto& [src, body] : hists) {
      wire::Reader r(body);
      r.u32();
      for (auto& t : total) t += r.u32();
    }
    auto first_bucket = balanced_bucket_ranges(total, p_);
    wire::Writer w;
    w.u32(iter());
    for (auto b : first_bucket) w.u32(b);
    Bytes body = w.take();
    for (Rank d = 0; d < p_; ++d) ctx.send(d, kSplits, body);
  }

  void send_keys(WorkloadContext& ctx, const Bytes& splits_body) {
    wire::Reader r(splits_body);
    r.u32();
    std::vector<std::uint32_t> first(static_cast<std::size_t>(p_) + 1);
    for (auto& f : first) f = r.u32();
    std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(p_));
    for (auto k : keys_) {
      auto b = bucket_of(k);
      auto owner = std::upper_bound(first.begin(), first.end(), b) - first.begin() - 1;
      out[static_cast<std::size_t>(owner)].push_back(k);
    }
    for (Rank d = 0; d < p_; ++d) {
      wire::Writer w;
      w.u32(iter());
      w.u32(static_cast<std::uint32_t>(out[static_cast<std::size_t>(d)].size()));
      for (auto k : out[static_cast<std::size_t>(d)]) w.u32(k);
      ctx.send(d, kKeys, w.take());
    }
  }

  void end_iteration(WorkloadContext& ctx) {
    auto held = std::move(pending_[iter()].keys);
    pending_.erase(iter());
    ++iteration_;
    splits_sent_ = keys_sent_ = sorting_ = false;
    if (iteration_ < cfg_.iterations) {
      begin_iteration(ctx);
      progress(ctx);
      return;
    }
    send_summary(ctx, summarize_output(held, keys_));
    if (ctx.rank() != 0) ctx.finished();
  }

  void send_summary(WorkloadContext& ctx, const SortSummary& s) {
    ctx.send(0, kSummary, write_summary(s));
  }

  void finish_verification(WorkloadContext& ctx) {
    auto verdict = verify_sort(summaries_, cfg_.total_keys);
    ctx.report("workload", {{"name", "intsort"},
                            {"makespan_ns", ctx.now() - start_},
                            {"verified", verdict.ok},
                            {"check", verdict.reason},
                            {"iterations", cfg_.iterations},
                            {"total_keys", cfg_.total_keys},
                            {"max_key", cfg_.max_key},
                            {"largest_rank_share", verdict.largest_share}});
    ctx.finished();
  }

  std::uint32_t iter() const { return static_cast<std::uint32_t>(iteration_); }

  IntSortConfig cfg_;
  int p_ = 1;
  std::uint32_t buckets_ = 1;
  std::vector<std::uint32_t> keys_;
  int iteration_ = 0;
  bool splits_sent_ = false, keys_sent_ = false, sorting_ = false;
  std::uint64_t received_ = 0;
  std::map<std::uint32_t, Pending> pending_;
  std::vector<SortSummary> summaries_;
  int summaries_in_ = 0;
  TimeNs start_ = 0;
};

}  // namespace

std::unique_ptr<Workload> make_intsort(const IntSortConfig& cfg) {
  return std::make_unique<IntSort>(cfg);
}

}  // namespace tsunagi
