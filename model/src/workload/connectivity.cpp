// The connectivity matrix of paper 001: every rank sends one small message to every other rank
// and answers every message it gets. A rank's part is over when each of its messages got an
// answer, an undeliverable notice, or the deadline passed. Each rank reports whom it reached;
// the runner turns the reports into relay.pairs_connected (docs/relay.md).
#include <algorithm>
#include <map>
#include <set>

#include "workload/workloads.hpp"

namespace tsunagi {
namespace {

constexpr std::uint32_t kHello = 1;
constexpr std::uint32_t kAnswer = 2;
constexpr std::uint64_t kDeadlineTimer = 1;

class Connectivity final : public Workload {
 public:
  explicit Connectivity(ConnectivityConfig cfg) : cfg_(cfg) {}

  void start(WorkloadContext& ctx) override {
    start_ = ctx.now();
    // All are waited for before the first send: a send can fail at once (no connection).
    for (Rank r = 0; r < ctx.size(); ++r)
      if (r != ctx.rank()) waiting_.insert(r);
    const std::set<Rank> targets = waiting_;
    for (Rank r : targets) ctx.send(r, kHello, {}, cfg_.message_bytes);
    ctx.arm_timer(kDeadlineTimer, start_ + cfg_.deadline);
    maybe_finish(ctx);
  }

  void on_message(WorkloadContext& ctx, Rank src, std::uint32_t tag, const Bytes& /*body*/,
                  std::uint64_t /*filler*/) override {
    if (tag == kHello) return ctx.send(src, kAnswer, {}, cfg_.message_bytes);
    if (tag != kAnswer || waiting_.erase(src) == 0) return;
    reached_.push_back(src);
    maybe_finish(ctx);
  }

  void on_undeliverable(WorkloadContext& ctx, Rank dst, std::uint32_t tag,
                        const std::string& reason) override {
    if (tag != kHello || waiting_.erase(dst) == 0) return;
    undeliverable_[dst] = reason;
    maybe_finish(ctx);
  }

  void on_timer(WorkloadContext& ctx, std::uint64_t timer) override {
    if (timer != kDeadlineTimer || done_) return;
    timed_out_.assign(waiting_.begin(), waiting_.end());
    waiting_.clear();
    maybe_finish(ctx);
  }

 private:
  void maybe_finish(WorkloadContext& ctx) {
    if (done_ || !waiting_.empty()) return;
    done_ = true;
    std::sort(reached_.begin(), reached_.end());
    std::vector<Rank> unreached(timed_out_);
    nlohmann::json reasons = nlohmann::json::object();
    for (const auto& [rank, reason] : undeliverable_) {
      unreached.push_back(rank);
      reasons[std::to_string(rank)] = reason;
    }
    std::sort(unreached.begin(), unreached.end());
    const TimeNs makespan = ctx.now() - start_;
    ctx.report("connectivity", {{"rank", ctx.rank()},
                                {"reached", reached_},
                                {"unreached", unreached},
                                {"timed_out", timed_out_},
                                {"undeliverable", reasons},
                                {"makespan_ns", makespan}});
    // One rank speaks for the workload section; the relay section reads every rank's report.
    // Verified: none of its messages vanished without an answer or a notice.
    if (ctx.rank() == 0) {
      ctx.report("workload", {{"name", "connectivity"},
                              {"makespan_ns", makespan},
                              {"verified", timed_out_.empty()},
                              {"reached", reached_.size()},
                              {"unreached", unreached.size()}});
    }
    ctx.finished();
  }

  ConnectivityConfig cfg_;
  TimeNs start_ = 0;
  std::set<Rank> waiting_;
  std::vector<Rank> reached_;
  std::vector<Rank> timed_out_;
  std::map<Rank, std::string> undeliverable_;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<Workload> make_connectivity(const ConnectivityConfig& cfg) {
  return std::make_unique<Connectivity>(cfg);
}

}  // namespace tsunagi
