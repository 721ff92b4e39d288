// Paper 004's link indices as a workload. Rank 0 runs every ordered pair of ranks, one pair at a
// time so no two measurements share a link: the pair's sender makes, for each size, `repeats`
// blocking ping-pongs over its connection (mpptest), optionally trains of back-to-back messages of
// the largest size (osu_bw: an unmeasured one, then a timed one), then raw round trips of each size
// up to a datagram outside every connection (ping), then one bulk transfer (iperf, with the buffers
// the run's connections get), and sends the figures to rank 0. Rank 0 computes TCP, OH_s, BW_s and
// MB/s (link_indices.hpp), reports them under "indices", and ends the run for everyone.
#include <algorithm>
#include <limits>

#include "tsunagi/model/codec.hpp"
#include "tsunagi/model/window/window_policy.hpp"
#include "tsunagi/model/workload/link_indices.hpp"
#include "workload/workloads.hpp"

namespace tsunagi {
namespace {

constexpr std::uint32_t kGo = 1;    // rank 0 -> sender: measure towards the rank in the body
constexpr std::uint32_t kPing = 2;  // sender -> peer, echoed as kPong
constexpr std::uint32_t kPong = 3;
constexpr std::uint32_t kPairDone = 4;  // sender -> rank 0: the measurement
constexpr std::uint32_t kEnd = 5;       // rank 0 -> everyone: all pairs measured
constexpr std::uint32_t kTrain = 6;     // sender -> peer: one message of a train
constexpr std::uint32_t kTrainAck = 7;  // peer -> sender: the train's last message arrived
constexpr std::uint64_t kStreamProbe = std::uint64_t{1} << 32;
constexpr std::uint64_t kFrameOverhead = 32 + 4;  // header and the round number

class Indices final : public Workload {
 public:
  explicit Indices(IndicesConfig cfg) : cfg_(std::move(cfg)) {}

  void start(WorkloadContext& ctx) override {
    if (ctx.rank() != 0) return;  // waits for kGo / kEnd; answers pings meanwhile
    start_ = ctx.now();
    for (Rank from = 0; from < ctx.size(); ++from)
      for (Rank to = 0; to < ctx.size(); ++to)
        if (from != to) pairs_.push_back({from, to});
    next_pair(ctx);
  }

  void on_message(WorkloadContext& ctx, Rank src, std::uint32_t tag, const Bytes& body,
                  std::uint64_t filler) override {
    wire::Reader r(body);
    switch (tag) {
      case kPing:
        return ctx.send(src, kPong, body, filler);
      case kPong:
        return on_pong(ctx, src, r.u32(), r.ok());
      case kTrain:
        return on_train_message(ctx, src, r);
      case kTrainAck:
        return on_train_ack(ctx, src, r.u32(), r.ok());
      case kGo:
        if (src != 0) return refuse(ctx, src, "go from a rank other than 0");
        return begin_pair(ctx, static_cast<Rank>(r.u32()));
      case kPairDone:
        if (ctx.rank() != 0) return refuse(ctx, src, "pair result sent to a rank other than 0");
        return on_pair_done(ctx, src, body);
      case kEnd:
        if (src != 0) return refuse(ctx, src, "end from a rank other than 0");
        return ctx.finished();
      default:
        return refuse(ctx, src, "unknown tag");
    }
  }

  void on_probe(WorkloadContext& ctx, std::uint64_t probe, TimeNs elapsed, bool ok) override {
    if (peer_ < 0) return;
    if (probe == kStreamProbe) {
      const TimeNs rtt = mine_.sizes.empty() ? 0 : mine_.sizes.front().raw_rtt_ns;
      mine_.tcp_bytes_per_second = ok ? probe_rate(cfg_.stream_bytes, elapsed, rtt) : 0;
      mine_.tcp_elapsed_ns = ok ? elapsed : 0;
      return finish_pair(ctx);
    }
    if (probe >= mine_.sizes.size()) return;
    mine_.sizes[probe].raw_rtt_ns = ok ? elapsed : 0;
    next_raw_probe(ctx, probe + 1);
  }

 private:
  void refuse(WorkloadContext& ctx, Rank src, const char* why) {
    ctx.decision("message_rejected", {{"from", src}, {"reason", why}});
  }

  // ---- rank 0: the pairs in order, then the report

  void next_pair(WorkloadContext& ctx) {
    if (next_ == pairs_.size()) return finish_all(ctx);
    const auto [from, to] = pairs_[next_];
    if (from == 0) return begin_pair(ctx, to);
    wire::Writer w;
    w.u32(static_cast<std::uint32_t>(to));
    ctx.send(from, kGo, w.take());
  }

  void on_pair_done(WorkloadContext& ctx, Rank src, const Bytes& body) {
    if (next_ >= pairs_.size() || pairs_[next_].first != src)
      return refuse(ctx, src, "pair result out of turn");
    PairMeasurement m;
    m.from = src;
    m.to = pairs_[next_].second;
    wire::Reader r(body);
    const std::uint32_t count = r.u32();
    if (count != cfg_.sizes.size()) return refuse(ctx, src, "pair result of the wrong size");
    for (std::uint32_t i = 0; i < count; ++i) {
      SizeMeasurement s;
      s.bytes = r.u64();
      s.message_ns = static_cast<TimeNs>(r.u64());
      s.raw_rtt_ns = static_cast<TimeNs>(r.u64());
      m.sizes.push_back(s);
    }
    m.tcp_bytes_per_second = static_cast<double>(r.u64());
    m.tcp_elapsed_ns = static_cast<TimeNs>(r.u64());
    m.train_message_bytes = r.u64();
    m.train_bytes_per_second = static_cast<double>(r.u64());
    if (!r.ok()) return refuse(ctx, src, "truncated pair result");
    record(std::move(m));
    ++next_;
    next_pair(ctx);
  }

  void record(PairMeasurement m) { results_.push_back(std::move(m)); }

  void finish_all(WorkloadContext& ctx) {
    nlohmann::json pairs = nlohmann::json::array();
    bool complete = true;
    for (const PairMeasurement& m : results_) {
      const LinkIndices x = link_indices(m, cfg_.nominal_bandwidth);
      nlohmann::json sizes = nlohmann::json::array();
      for (const SizeMeasurement& s : m.sizes) {
        complete = complete && s.message_ns > 0;
        sizes.push_back(
            {{"bytes", s.bytes},
             {"message_ns", s.message_ns},
             {"raw_rtt_ns", s.raw_rtt_ns > 0 ? nlohmann::json(s.raw_rtt_ns) : nullptr}});
      }
      const auto opt = [](const std::optional<double>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
      };
      complete = complete && m.tcp_bytes_per_second > 0;
      complete = complete && (cfg_.train_messages == 0 || m.train_bytes_per_second > 0);
      pairs.push_back({{"from", m.from},
                       {"to", m.to},
                       {"tcp_bytes_per_second", m.tcp_bytes_per_second},
                       {"tcp_elapsed_ns", m.tcp_elapsed_ns},
                       {"TCP", x.tcp},
                       {"OH_64B", opt(x.oh_64b)},
                       {"OH_64KB", opt(x.oh_64kb)},
                       {"BW_64KB", opt(x.bw_64kb)},
                       {"BW_8MB", opt(x.bw_8mb)},
                       {"MBps_8MB", opt(x.mbps_8mb)},
                       {"train_message_bytes", m.train_message_bytes},
                       {"train_bytes_per_second", m.train_bytes_per_second},
                       {"BW_train", opt(x.bw_train)},
                       {"sizes", std::move(sizes)}});
    }
    ctx.report("indices", {{"nominal_bytes_per_second", cfg_.nominal_bandwidth},
                           {"repeats", cfg_.repeats},
                           {"stream_bytes", cfg_.stream_bytes},
                           {"train_messages", cfg_.train_messages},
                           {"pairs", pairs}});
    ctx.report("workload", {{"name", "indices"},
                            {"makespan_ns", ctx.now() - start_},
                            {"verified", complete && results_.size() == pairs_.size()},
                            {"pairs", results_.size()}});
    for (Rank r = 1; r < ctx.size(); ++r) ctx.send(r, kEnd, {});
    ctx.finished();
  }

  // ---- the sender of a pair: ping-pongs, raw round trips, the bulk transfer

  void begin_pair(WorkloadContext& ctx, Rank peer) {
    if (peer < 0 || peer >= ctx.size() || peer == ctx.rank() || peer_ >= 0)
      return refuse(ctx, 0, "go towards an impossible peer");
    peer_ = peer;
    mine_ = PairMeasurement{ctx.rank(), peer, {}, 0, 0, 0, 0};
    for (std::uint64_t bytes : cfg_.sizes) mine_.sizes.push_back({bytes, 0, 0});
    size_ = 0;
    repeat_ = 0;
    best_ = std::numeric_limits<TimeNs>::max();
    send_ping(ctx);
  }

  void send_ping(WorkloadContext& ctx) {
    wire::Writer w;
    w.u32(round_);
    const std::uint64_t bytes = cfg_.sizes[size_];
    const std::uint64_t filler = bytes > kFrameOverhead ? bytes - kFrameOverhead : 0;
    sent_at_ = ctx.now();
    ctx.send(peer_, kPing, w.take(), filler);
  }

  void on_pong(WorkloadContext& ctx, Rank src, std::uint32_t round, bool ok) {
    if (src != peer_ || !ok || round != round_) return refuse(ctx, src, "unexpected pong");
    ++round_;
    best_ = std::min(best_, ctx.now() - sent_at_);
    if (++repeat_ < cfg_.repeats) return send_ping(ctx);
    mine_.sizes[size_].message_ns = best_ / 2;
    repeat_ = 0;
    best_ = std::numeric_limits<TimeNs>::max();
    if (++size_ < cfg_.sizes.size()) return send_ping(ctx);
    if (cfg_.train_messages > 0) return send_train(ctx, /*timed=*/false);
    next_raw_probe(ctx, 0);
  }

  // ---- trains: messages of the largest size back to back, the last one answered

  void send_train(WorkloadContext& ctx, bool timed) {
    timed_train_ = timed;
    const std::uint64_t bytes = cfg_.sizes.back();
    const std::uint64_t filler = bytes > kFrameOverhead + 8 ? bytes - kFrameOverhead - 8 : 0;
    const auto total = static_cast<std::uint32_t>(cfg_.train_messages);
    sent_at_ = ctx.now();
    for (std::uint32_t i = 0; i < total; ++i) {
      wire::Writer w;
      w.u32(round_);
      w.u32(i);
      w.u32(total);
      ctx.send(peer_, kTrain, w.take(), filler);
    }
  }

  // The receiving end keeps no state: per-connection order puts the last message last.
  void on_train_message(WorkloadContext& ctx, Rank src, wire::Reader& r) {
    const std::uint32_t round = r.u32();
    const std::uint32_t index = r.u32();
    const std::uint32_t total = r.u32();
    if (!r.ok() || index >= total) return refuse(ctx, src, "malformed train message");
    if (index + 1 < total) return;
    wire::Writer w;
    w.u32(round);
    ctx.send(src, kTrainAck, w.take());
  }

  void on_train_ack(WorkloadContext& ctx, Rank src, std::uint32_t round, bool ok) {
    if (src != peer_ || !ok || round != round_) return refuse(ctx, src, "unexpected train answer");
    ++round_;
    if (!timed_train_) return send_train(ctx, /*timed=*/true);
    const std::uint64_t bytes = cfg_.sizes.back();
    const auto total = static_cast<std::uint64_t>(cfg_.train_messages);
    mine_.train_message_bytes = bytes;
    mine_.train_bytes_per_second = message_rate(bytes * total, ctx.now() - sent_at_).value_or(0);
    next_raw_probe(ctx, 0);
  }

  void next_raw_probe(WorkloadContext& ctx, std::uint64_t index) {
    if (index < cfg_.sizes.size() && cfg_.sizes[index] <= kIndexMedium) {
      const auto bytes = static_cast<std::uint32_t>(std::min(cfg_.sizes[index], kMaxRawProbeBytes));
      return ctx.probe_rtt(peer_, index, bytes, cfg_.repeats);
    }
    ctx.probe_throughput(peer_, kStreamProbe, cfg_.stream_bytes);
  }

  void finish_pair(WorkloadContext& ctx) {
    peer_ = -1;
    if (ctx.rank() == 0) {
      record(std::move(mine_));
      ++next_;
      return next_pair(ctx);
    }
    wire::Writer w;
    w.u32(static_cast<std::uint32_t>(mine_.sizes.size()));
    for (const SizeMeasurement& s : mine_.sizes) {
      w.u64(s.bytes);
      w.u64(static_cast<std::uint64_t>(s.message_ns));
      w.u64(static_cast<std::uint64_t>(s.raw_rtt_ns));
    }
    w.u64(static_cast<std::uint64_t>(mine_.tcp_bytes_per_second));
    w.u64(static_cast<std::uint64_t>(mine_.tcp_elapsed_ns));
    w.u64(mine_.train_message_bytes);
    w.u64(static_cast<std::uint64_t>(mine_.train_bytes_per_second));
    ctx.send(0, kPairDone, w.take());
  }

  IndicesConfig cfg_;
  // rank 0
  std::vector<std::pair<Rank, Rank>> pairs_;
  std::size_t next_ = 0;
  std::vector<PairMeasurement> results_;
  TimeNs start_ = 0;
  // the sender of the pair being measured
  Rank peer_ = -1;
  PairMeasurement mine_;
  std::size_t size_ = 0;
  int repeat_ = 0;
  std::uint32_t round_ = 0;
  TimeNs sent_at_ = 0;
  TimeNs best_ = 0;
  bool timed_train_ = false;
};

}  // namespace

std::unique_ptr<Workload> make_indices(const IndicesConfig& cfg) {
  return std::make_unique<Indices>(cfg);
}

}  // namespace tsunagi
