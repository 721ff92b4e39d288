// Ping-pong between two ranks: `rounds` round trips of `message_bytes` each. The ping rank
// times every round trip and reports; all other ranks finish at once (they still relay).
#include "tsunagi/model/codec.hpp"
#include "workload/workloads.hpp"

namespace tsunagi {
namespace {

constexpr std::uint32_t kPing = 1;
constexpr std::uint32_t kPong = 2;

class PingPong final : public Workload {
 public:
  explicit PingPong(PingPongConfig cfg) : cfg_(cfg) {}

  void start(WorkloadContext& ctx) override {
    pong_ = cfg_.pong < 0 ? ctx.size() - 1 : cfg_.pong;
    bool valid = cfg_.ping >= 0 && cfg_.ping < ctx.size() && pong_ >= 0 && pong_ < ctx.size() &&
                 cfg_.ping != pong_;
    if (ctx.rank() == cfg_.ping) {
      if (!valid) {
        ctx.report("workload", {{"name", "pingpong"},
                                {"verified", false},
                                {"error", "ping and pong must be two distinct ranks"}});
        ctx.finished();
        return;
      }
      start_ = ctx.now();
      send_round(ctx, kPing, 0);
    } else {
      // The pong side answers whenever pings arrive; it has nothing to wait for itself.
      ctx.finished();
    }
  }

  void on_message(WorkloadContext& ctx, Rank src, std::uint32_t tag, const Bytes& body,
                  std::uint64_t filler) override {
    wire::Reader r(body);
    std::uint32_t round = r.u32();
    if (tag == kPing) {
      ctx.send(src, kPong, body, filler);
      return;
    }
    if (tag != kPong || ctx.rank() != cfg_.ping) return;
    if (!r.ok() || round != next_round_) mismatched_ = true;
    rtts_.push_back(ctx.now() - sent_at_);
    if (++next_round_ < static_cast<std::uint32_t>(cfg_.rounds)) {
      send_round(ctx, kPing, next_round_);
      return;
    }
    TimeNs makespan = ctx.now() - start_;
    ctx.report("workload",
               {{"name", "pingpong"},
                {"makespan_ns", makespan},
                {"verified", !mismatched_ && rtts_.size() == static_cast<std::size_t>(cfg_.rounds)},
                {"ping", cfg_.ping},
                {"pong", pong_},
                {"message_bytes", cfg_.message_bytes},
                {"round_trip_ns", rtts_}});
    ctx.finished();
  }

 private:
  void send_round(WorkloadContext& ctx, std::uint32_t tag, std::uint32_t round) {
    wire::Writer w;
    w.u32(round);
    Bytes body = w.take();
    std::uint64_t header = 32 + 4 + body.size();
    std::uint64_t filler = cfg_.message_bytes > header ? cfg_.message_bytes - header : 0;
    sent_at_ = ctx.now();
    ctx.send(pong_, tag, std::move(body), filler);
  }

  PingPongConfig cfg_;
  Rank pong_ = 0;
  TimeNs start_ = 0;
  TimeNs sent_at_ = 0;
  std::uint32_t next_round_ = 0;
  std::vector<TimeNs> rtts_;
  bool mismatched_ = false;
};

class NoWorkload final : public Workload {
 public:
  void start(WorkloadContext& ctx) override { ctx.finished(); }
  void on_message(WorkloadContext&, Rank, std::uint32_t, const Bytes&, std::uint64_t) override {}
};

}  // namespace

std::unique_ptr<Workload> make_pingpong(const PingPongConfig& cfg) {
  return std::make_unique<PingPong>(cfg);
}

std::unique_ptr<Workload> make_workload(const WorkloadConfig& config) {
  switch (config.kind) {
    case WorkloadKind::PingPong:
      return make_pingpong(config.pingpong);
    case WorkloadKind::IntSort:
      return make_intsort(config.intsort);
    case WorkloadKind::Connectivity:
      return make_connectivity(config.connectivity);
    case WorkloadKind::Multicast:
      return make_multicast(config.multicast);
    case WorkloadKind::Lmmc:
      return make_lmmc(config.lmmc);
    case WorkloadKind::Indices:
      return make_indices(config.indices);
    case WorkloadKind::None:
      break;
  }
  return std::make_unique<NoWorkload>();
}

}  // namespace tsunagi
