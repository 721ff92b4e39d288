// Issue 17: the integer sort given messages it cannot use (docs/security.md). Found by fuzzing
// under ASan: a splits message shorter than its p + 1 bucket bounds made send_keys pick an
// owner past the end of its per-rank table and write there (heap overflow).
#include <catch2/catch.hpp>

#include "tsunagi/model/codec.hpp"
#include "tsunagi/model/workload/workload.hpp"

using namespace tsunagi;

namespace {

// Message tags of the integer sort (model/src/workload/intsort.cpp).
constexpr std::uint32_t kSplits = 11, kKeys = 12;
constexpr std::uint64_t kBucketTask = 1;

// Rank 1 of 4, recording what the workload does.
struct Context final : WorkloadContext {
  struct Sent {
    Rank dst;
    std::uint32_t tag;
  };
  Rank rank() const override { return 1; }
  int size() const override { return 4; }
  TimeNs now() const override { return 0; }
  std::uint64_t seed() const override { return 1; }
  void send(Rank dst, std::uint32_t tag, Bytes, std::uint64_t) override {
    sent.push_back({dst, tag});
  }
  void compute(std::uint64_t, TimeNs) override {}
  void cpu(std::uint64_t, TimeNs) override {}
  void report(const std::string&, nlohmann::json) override {}
  void finished() override {}
  void arm_timer(std::uint64_t, TimeNs) override {}
  void decision(const std::string& kind, nlohmann::json detail) override {
    if (kind == "message_rejected") rejected.push_back(detail.at("reason").get<std::string>());
  }
  const std::vector<int>& switch_group_of_rank() const override { return groups; }
  void probe_rtt(Rank, std::uint64_t, std::uint32_t, int) override {}
  void probe_throughput(Rank, std::uint64_t, std::uint64_t) override {}

  int keys_sent() const {
    int n = 0;
    for (const Sent& s : sent) n += s.tag == kKeys ? 1 : 0;
    return n;
  }

  std::vector<Sent> sent;
  std::vector<std::string> rejected;
  std::vector<int> groups;
};

// Rank 1's sort, with its histogram sent: it waits for rank 0's splits.
std::unique_ptr<Workload> waiting_for_splits(Context& ctx) {
  WorkloadConfig cfg;
  cfg.kind = WorkloadKind::IntSort;
  cfg.intsort.total_keys = 4000;
  cfg.intsort.max_key = 1024;
  auto sort = make_workload(cfg);
  sort->start(ctx);
  sort->on_compute_done(ctx, kBucketTask);
  return sort;
}

Bytes splits(std::vector<std::uint32_t> first) {
  wire::Writer w;
  w.u32(0);  // iteration
  for (std::uint32_t f : first) w.u32(f);
  return w.take();
}

}  // namespace

TEST_CASE("hostile intsort: a short splits message is refused, no keys go anywhere",
          "[hostile][workload]") {
  Context ctx;
  auto sort = waiting_for_splits(ctx);
  sort->on_message(ctx, 0, kSplits, splits({}), 0);  // the iteration number only
  CHECK(ctx.rejected == std::vector<std::string>{"splits of the wrong size"});
  CHECK(ctx.keys_sent() == 0);
}

TEST_CASE("hostile intsort: splits out of order, or not from rank 0, are refused",
          "[hostile][workload]") {
  Context ctx;
  auto sort = waiting_for_splits(ctx);
  // 1024 buckets: bounds must go 0 .. 1024 without going down.
  sort->on_message(ctx, 0, kSplits, splits({0, 900, 300, 1000, 1024}), 0);
  sort->on_message(ctx, 0, kSplits, splits({5, 200, 300, 1000, 1024}), 0);
  sort->on_message(ctx, 0, kSplits, splits({0, 200, 300, 1000, 4000}), 0);
  sort->on_message(ctx, 2, kSplits, splits({0, 256, 512, 768, 1024}), 0);
  sort->on_message(ctx, 9, kKeys, splits({0}), 0);
  CHECK(ctx.rejected == std::vector<std::string>{
                            "splits out of order", "splits out of order", "splits out of order",
                            "splits come from rank 0 only", "unknown source rank"});
  CHECK(ctx.keys_sent() == 0);
  // Well-formed splits from rank 0 are used: one key message to every rank.
  sort->on_message(ctx, 0, kSplits, splits({0, 256, 512, 768, 1024}), 0);
  CHECK(ctx.keys_sent() == 4);
  CHECK(ctx.rejected.size() == 5);
}
