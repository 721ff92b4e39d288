// The LMMC workload's two shapes: a fixed program per rank (ring, all-to-all, stencil,
// master-worker, random), and paper 003's two-node ping-pong behind Fig. 9/10. See lmmc_node.hpp.
#include <algorithm>

#include "workload/lmmc_node.hpp"
#include "workload/workloads.hpp"

namespace tsunagi {
namespace {

constexpr std::uint64_t kStartTimer = 1;
// The ping waits this long before its first message, so that both sides have run their
// initialisation routine (ports paged into the free frames) and their processes are polling
// their ports (the reading pages' first touch paid) before anything is timed.
constexpr TimeNs kSettle = 20 * kNsPerMs;

class LmmcProgram final : public LmmcNode {
 public:
  using LmmcNode::LmmcNode;
  void start(WorkloadContext& ctx) override {
    program_ = lmmc_program(cfg_, ctx.rank(), ctx.size(), ctx.seed());
    LmmcNode::start(ctx);
  }
};

// Ping-pong: `warmup` untimed 1-byte round trips on a port of their own (process `procs`), then
// for each size `rounds` round trips between ping and pong, size s on process s mod procs (a
// port of its own, so each size's first message maps a fresh page as the paper's first message
// did). The ping times each round trip; one way = round trip / 2, as the paper derives it.
// Messages are numbered from 0 in the order both sides see them, warm-up first.
class LmmcPingPong final : public LmmcNode {
 public:
  using LmmcNode::LmmcNode;

  void start(WorkloadContext& ctx) override {
    pong_ = cfg_.pong < 0 ? ctx.size() - 1 : cfg_.pong;
    const Rank me = ctx.rank();
    if (me != cfg_.ping && me != pong_) {
      ctx.finished();
      return;
    }
    const Rank partner = me == cfg_.ping ? pong_ : cfg_.ping;
    preload(ctx, partner);
    for (int proc = 0; proc < ports(); ++proc) touch_read_page(ctx, partner, proc);
    total_ = warmup() + cfg_.sizes.size() * rounds();
    LmmcNode::start(ctx);
    if (me == cfg_.ping) ctx.arm_timer(kStartTimer, ctx.now() + kSettle);
  }

  void on_timer(WorkloadContext& ctx, std::uint64_t timer) override {
    if (timer == kStartTimer) send_next(ctx);
  }

 protected:
  std::uint64_t message_size() const override {
    return total_ == 0 ? 1 : size_of(std::min(done_, total_ - 1));
  }
  int ports() const override { return cfg_.procs + (warmup() > 0 ? 1 : 0); }
  bool done_writing() const override { return done_ >= total_; }

  void on_message_read(WorkloadContext& ctx, Rank src, int proc) override {
    if (ctx.rank() == pong_) {
      ++done_;  // the pong's count of answered messages
      return queue_write(ctx, {src, proc, static_cast<std::uint32_t>(size_of(done_ - 1))});
    }
    if (done_ >= warmup())
      round_trips_.push_back(ctx.now() - sent_at_);
    else
      warmup_round_trips_.push_back(ctx.now() - sent_at_);
    ++done_;
    if (done_ < total_) return send_next(ctx);
    check_done(ctx);
  }

  void on_done(WorkloadContext& ctx) override {
    if (ctx.rank() == cfg_.ping) report_series(ctx);
    LmmcNode::on_done(ctx);
  }

 private:
  std::size_t rounds() const { return static_cast<std::size_t>(std::max(cfg_.rounds, 1)); }
  std::size_t warmup() const { return static_cast<std::size_t>(std::max(cfg_.warmup, 0)); }
  std::size_t size_index(std::size_t message) const { return (message - warmup()) / rounds(); }
  std::uint64_t size_of(std::size_t message) const {
    return message < warmup() ? 1 : cfg_.sizes[size_index(message)];
  }
  int proc_of(std::size_t message) const {
    if (message < warmup()) return cfg_.procs;
    return static_cast<int>(size_index(message) % static_cast<std::size_t>(cfg_.procs));
  }

  void send_next(WorkloadContext& ctx) {
    sent_at_ = ctx.now();
    queue_write(ctx, {pong_, proc_of(done_), static_cast<std::uint32_t>(size_of(done_))});
  }

  // The middle of the later round trips (the mean of the two middle ones for an even count):
  // a round trip that a real backend's scheduler delayed does not move it.
  static TimeNs median(std::vector<TimeNs> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }

  // Per size: every round trip, the first one way, the later ones' median and the difference.
  void report_series(WorkloadContext& ctx) {
    nlohmann::json series = nlohmann::json::array();
    for (std::size_t s = 0; s < cfg_.sizes.size(); ++s) {
      std::vector<TimeNs> rtts(
          round_trips_.begin() + static_cast<std::ptrdiff_t>(s * rounds()),
          round_trips_.begin() + static_cast<std::ptrdiff_t>((s + 1) * rounds()));
      const TimeNs later = rtts.size() > 1 ? median({rtts.begin() + 1, rtts.end()}) : 0;
      series.push_back({{"bytes", cfg_.sizes[s]},
                        {"round_trip_ns", rtts},
                        {"first_one_way_ns", rtts.front() / 2},
                        {"later_one_way_ns", later / 2},
                        {"first_minus_later_ns", rtts.front() / 2 - later / 2}});
    }
    ctx.report("lmmc", {{"pattern", "pingpong"},
                        {"ping", cfg_.ping},
                        {"pong", pong_},
                        {"rounds", cfg_.rounds},
                        {"warmup_round_trip_ns", warmup_round_trips_},
                        {"series", series}});
  }

  Rank pong_ = 0;
  std::size_t total_ = 0;
  std::size_t done_ = 0;  // messages answered (pong) or round trips completed (ping)
  TimeNs sent_at_ = 0;
  std::vector<TimeNs> warmup_round_trips_;
  std::vector<TimeNs> round_trips_;
};

}  // namespace

std::unique_ptr<Workload> make_lmmc(const LmmcConfig& cfg) {
  if (cfg.pattern == "pingpong") return std::make_unique<LmmcPingPong>(cfg);
  return std::make_unique<LmmcProgram>(cfg);
}

}  // namespace tsunagi
