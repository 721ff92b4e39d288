// The LMMC workload (issue 14) on an in-memory network: every pattern and policy moves every
// byte in order with remote paging, and the ping-pong's first round trip pays the writers'
// first touches (after an untimed warm-up on a port of its own). A fake context delivers messages
// after a fixed latency, in order per pair, and runs each rank's CPU jobs one after another, as the
// node's CPU queue does.
#include <catch2/catch.hpp>

#include <map>
#include <queue>
#include <tuple>

#include "tsunagi/model/workload/workload.hpp"

using namespace tsunagi;

namespace {

struct Net;

struct Ctx final : WorkloadContext {
  Net* net = nullptr;
  Rank me = 0;
  TimeNs cpu_free = 0;
  bool done = false;
  std::map<std::string, nlohmann::json> reports;
  std::vector<nlohmann::json> pages;
  Rank rank() const override { return me; }
  int size() const override;
  TimeNs now() const override;
  std::uint64_t seed() const override { return 1; }
  void send(Rank dst, std::uint32_t tag, Bytes body, std::uint64_t filler) override;
  void compute(std::uint64_t task, TimeNs duration) override { cpu(task, duration); }
  void cpu(std::uint64_t task, TimeNs duration) override;
  void report(const std::string& key, nlohmann::json value) override { reports[key] = value; }
  void finished() override;
  void arm_timer(std::uint64_t timer, TimeNs at) override;
  // LMMC workloads measure nothing themselves: a probe request is a test failure.
  void probe_rtt(Rank, std::uint64_t, std::uint32_t, int) override { FAIL("probe_rtt"); }
  void probe_throughput(Rank, std::uint64_t, std::uint64_t) override { FAIL("probe_throughput"); }
  void decision(const std::string& kind, nlohmann::json detail) override {
    if (kind == "lmmc_page") pages.push_back(detail);
    if (kind != "lmmc_page") FAIL(kind << " " << detail.dump());
  }
  const std::vector<int>& switch_group_of_rank() const override { return groups; }
  std::vector<int> groups;
};

struct Event {
  TimeNs at;
  std::uint64_t order;
  std::function<void()> run;
  bool operator>(const Event& o) const { return std::tie(at, order) > std::tie(o.at, o.order); }
};

struct Net {
  explicit Net(const LmmcConfig& cfg, int n) : ctx(static_cast<std::size_t>(n)) {
    WorkloadConfig w;
    w.kind = WorkloadKind::Lmmc;
    w.lmmc = cfg;
    for (int r = 0; r < n; ++r) {
      ctx[static_cast<std::size_t>(r)].net = this;
      ctx[static_cast<std::size_t>(r)].me = r;
      load.push_back(make_workload(w));
    }
  }
  void at(TimeNs t, std::function<void()> f) { events.push({t, order++, std::move(f)}); }
  void run() {
    for (std::size_t r = 0; r < ctx.size(); ++r) load[r]->start(ctx[r]);
    while (!events.empty()) {
      Event e = events.top();
      events.pop();
      now = e.at;
      e.run();
    }
    for (std::size_t r = 0; r < ctx.size(); ++r) load[r]->on_shutdown(ctx[r]);
  }
  std::vector<Ctx> ctx;
  std::vector<std::unique_ptr<Workload>> load;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events;
  std::map<std::pair<Rank, Rank>, TimeNs> wire_free;
  TimeNs now = 0;
  TimeNs last_done = 0;
  std::uint64_t order = 0;
};

void Ctx::finished() {
  done = true;
  net->last_done = std::max(net->last_done, net->now);
}

int Ctx::size() const {
  return static_cast<int>(net->ctx.size());
}
TimeNs Ctx::now() const {
  return net->now;
}
void Ctx::send(Rank dst, std::uint32_t tag, Bytes body, std::uint64_t filler) {
  TimeNs& free = net->wire_free[{me, dst}];  // FIFO per pair: 10 us, then 1 ns per byte
  free = std::max(free, net->now) + 10'000 + static_cast<TimeNs>(body.size());
  Net* n = net;
  const Rank src = me;
  n->at(free, [n, src, dst, tag, body, filler] {
    auto d = static_cast<std::size_t>(dst);
    n->load[d]->on_message(n->ctx[d], src, tag, body, filler);
  });
}
void Ctx::cpu(std::uint64_t task, TimeNs duration) {
  cpu_free = std::max(cpu_free, net->now) + duration;
  Net* n = net;
  const auto r = static_cast<std::size_t>(me);
  n->at(cpu_free, [n, r, task] { n->load[r]->on_compute_done(n->ctx[r], task); });
}
void Ctx::arm_timer(std::uint64_t timer, TimeNs at) {
  Net* n = net;
  const auto r = static_cast<std::size_t>(me);
  n->at(at, [n, r, timer] { n->load[r]->on_timer(n->ctx[r], timer); });
}

nlohmann::json totals(const Net& net) {
  nlohmann::json sum = {{"writes", 0},     {"page_faults", 0},   {"bytes_written", 0},
                        {"bytes_read", 0}, {"rejected", 0},      {"mismatched_bytes", 0},
                        {"unfinished", 0}, {"first_touches", 0}, {"messages_read", 0}};
  for (const Ctx& c : net.ctx)
    for (auto& [key, value] : sum.items())
      value = value.get<std::uint64_t>() + c.reports.at("lmmc_rank").at(key).get<std::uint64_t>();
  return sum;
}

// Ping-pong of two sizes (one under a page, one over), 3 round trips each, a port per size and
// one for the warm-up, a frame per port: nothing pages.
LmmcConfig pingpong_config(int warmup) {
  LmmcConfig cfg;
  cfg.sizes = {1, 5000};
  cfg.rounds = 3;
  cfg.warmup = warmup;
  cfg.procs = 2;
  cfg.frames = warmup > 0 ? 3 : 2;
  return cfg;
}

// A's touch on the way out and B's on the way back: 2 x 180 us per round trip, 180 one way.
void check_first_touch_gap(const nlohmann::json& series) {
  REQUIRE(series.size() == 2);
  for (const auto& row : series) {
    INFO(row.dump());
    CHECK(row["round_trip_ns"].size() == 3);
    CHECK(row["first_minus_later_ns"].get<TimeNs>() == 180 * kNsPerUs);
  }
}

}  // namespace

TEST_CASE("lmmc workload: every pattern and policy moves every byte in order, paging",
          "[lmmc][workload]") {
  for (const char* pattern : {"ring", "all_to_all", "stencil", "master_worker", "random"})
    for (const char* policy : {"fifo", "lru", "clock", "comm"})
      for (int lookahead : {0, 3}) {
        LmmcConfig cfg;
        cfg.pattern = pattern;
        cfg.policy = policy;
        cfg.procs = 6;
        cfg.frames = 3;
        cfg.iterations = 5;
        cfg.message_bytes = 700;
        cfg.page_size = 1024;
        cfg.lookahead = lookahead;
        Net net(cfg, 8);
        net.run();
        const nlohmann::json sum = totals(net);
        INFO(pattern << " " << policy << " q=" << lookahead << " " << sum.dump());
        for (const Ctx& c : net.ctx) CHECK(c.done);
        // Nothing is read (and credited) before its receive cost is paid: the last CPU job
        // of every rank ends no later than the last rank is done.
        for (const Ctx& c : net.ctx) CHECK(c.cpu_free <= net.last_done);
        CHECK(sum["unfinished"] == 0);
        CHECK(sum["rejected"] == 0);
        CHECK(sum["mismatched_bytes"] == 0);
        CHECK(sum["bytes_read"] == sum["bytes_written"]);
        CHECK(sum["bytes_written"].get<std::uint64_t>() ==
              sum["writes"].get<std::uint64_t>() * 700);
        // 6 ports through 3 frames: every link end pages beyond its first 3 ports.
        CHECK(sum["page_faults"].get<std::uint64_t>() > 0);
        std::size_t traced = 0;
        for (const Ctx& c : net.ctx) traced += c.pages.size();
        CHECK(traced == sum["page_faults"].get<std::uint64_t>());
      }
}

TEST_CASE("lmmc workload: the ping-pong's first round trip pays the writers' first touches",
          "[lmmc][workload]") {
  Net net(pingpong_config(0), 2);
  net.run();
  check_first_touch_gap(net.ctx[0].reports.at("lmmc").at("series"));
  CHECK(totals(net)["page_faults"] == 0);  // preloaded: frames = procs
  CHECK(net.ctx[0].reports.at("workload").at("verified") == true);
}

TEST_CASE("lmmc workload: the ping-pong's warm-up is untimed and leaves every size's first touch",
          "[lmmc][workload]") {
  Net net(pingpong_config(2), 2);
  net.run();
  const nlohmann::json& lmmc = net.ctx[0].reports.at("lmmc");
  const nlohmann::json& series = lmmc.at("series");
  check_first_touch_gap(series);
  // The warm-up's own port pays its first touches (2 x 180 us) in its first round trip only.
  const auto warm = lmmc.at("warmup_round_trip_ns").get<std::vector<TimeNs>>();
  REQUIRE(warm.size() == 2);
  CHECK(warm[0] - warm[1] == 360 * kNsPerUs);
  CHECK(warm[1] == series[0]["round_trip_ns"][1].get<TimeNs>());  // 1 byte, as the 1-byte size
  const nlohmann::json sum = totals(net);
  CHECK(sum["page_faults"] == 0);
  CHECK(sum["first_touches"] == 2 * 3);  // per rank: the warm-up's port and both sizes' ports
  CHECK(sum["messages_read"] == 2 * (2 + 2 * 3));
  CHECK(net.ctx[0].reports.at("workload").at("verified") == true);
}
