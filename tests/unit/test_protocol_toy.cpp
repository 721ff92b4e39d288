// The whole protocol core (rendezvous + nodes) in the toy world: inference, plans, routes,
// shortcuts and workloads end to end, plus faults (garbage frames, a rank that never comes).
#include <catch2/catch.hpp>

#include "toy_world.hpp"

using namespace tsunagi;
using tsunagi::testing::ToyWorld;

namespace {

struct Layout {
  std::vector<int> switch_of, host_of;
};

Layout layout(std::vector<int> hosts_per_switch, int procs_per_host) {
  Layout l;
  int host = 0;
  for (std::size_t s = 0; s < hosts_per_switch.size(); ++s) {
    for (int h = 0; h < hosts_per_switch[s]; ++h, ++host) {
      for (int p = 0; p < procs_per_host; ++p) {
        l.switch_of.push_back(static_cast<int>(s));
        l.host_of.push_back(host);
      }
    }
  }
  return l;
}

Groups truth(const Layout& l) {
  Groups g;
  std::map<int, std::vector<Rank>> by_switch;
  for (std::size_t r = 0; r < l.switch_of.size(); ++r)
    by_switch[l.switch_of[r]].push_back(static_cast<Rank>(r));
  for (auto& [s, ranks] : by_switch) g.push_back(ranks);
  return g;
}

std::vector<std::string> trace_lines(const ToyWorld& w) {
  std::vector<std::string> out;
  for (const auto& t : w.traces)
    out.push_back(t.proc + " " + t.trace.kind + " " + t.trace.detail.dump());
  return out;
}

}  // namespace

TEST_CASE("toy world: groups inferred, ping-pong delivered over relays", "[protocol]") {
  Layout l = layout({4, 4, 4}, 1);
  ProtocolConfig cfg;
  cfg.workload.kind = WorkloadKind::PingPong;
  cfg.workload.pingpong.rounds = 5;
  ToyWorld w(cfg, l.switch_of, l.host_of);
  REQUIRE(w.run());
  REQUIRE(w.reports["inference"].size() == 1);
  CHECK(w.reports["inference"][0]["groups"].get<Groups>() == truth(l));
  REQUIRE(w.reports["workload"].size() == 1);
  CHECK(w.reports["workload"][0]["verified"] == true);
  CHECK(w.probes == 12u * 11u);
  // Rank 0 and rank 11 are on different switches and need not share a link: relays counted.
  std::uint64_t relayed = 0;
  for (auto& n : w.reports["node"]) relayed += n["messages_relayed"].get<std::uint64_t>();
  CHECK(w.reports["node"].size() == 12);
  CHECK(relayed > 0);
}

TEST_CASE("toy world: two processes per host still give switch groups", "[protocol]") {
  Layout l = layout({3, 3, 2}, 2);
  ProtocolConfig cfg;
  cfg.workload.kind = WorkloadKind::None;
  ToyWorld w(cfg, l.switch_of, l.host_of);
  REQUIRE(w.run());
  CHECK(w.reports["inference"][0]["groups"].get<Groups>() == truth(l));
}

TEST_CASE("toy world: integer sort verifies under every plan and cache size", "[protocol]") {
  Layout l = layout({3, 3, 2}, 2);
  for (auto plan : {PlanKind::TopologyAware, PlanKind::AllToAll, PlanKind::RandomK}) {
    for (int cache : {0, 1, 4}) {
      ProtocolConfig cfg;
      cfg.overlay.plan = plan;
      cfg.overlay.random_k = 3;
      cfg.overlay.shortcut_capacity = cache;
      cfg.workload.kind = WorkloadKind::IntSort;
      cfg.workload.intsort.total_keys = 5000;
      cfg.workload.intsort.max_key = 1 << 12;
      cfg.workload.intsort.iterations = 3;
      ToyWorld w(cfg, l.switch_of, l.host_of);
      INFO("plan " << to_string(plan) << " cache " << cache);
      REQUIRE(w.run());
      REQUIRE(w.reports["workload"].size() == 1);
      CHECK(w.reports["workload"][0]["verified"] == true);
      std::uint64_t evicted = 0, opened = 0;
      int max_conn = 0;
      for (auto& n : w.reports["node"]) {
        opened += n["shortcuts_opened"].get<std::uint64_t>();
        evicted += n["shortcuts_evicted"].get<std::uint64_t>();
        max_conn = std::max(max_conn, n["max_connections"].get<int>());
      }
      if (cache == 0) CHECK(opened == 0);
      if (cache > 0 && plan == PlanKind::TopologyAware) CHECK(opened > 0);
      if (plan == PlanKind::AllToAll) CHECK(max_conn == 15);
      // Opened or accepted, a node holds at most `cache` shortcuts beside its static links.
      for (auto& n : w.reports["node"])
        CHECK(n["max_connections"].get<int>() <=
              n["static_connections"].get<int>() + cfg.overlay.shortcut_capacity);
    }
  }
}

TEST_CASE("toy world: CPU costs delay the run, not its outcome", "[protocol]") {
  // protocol.costs (paper 000's relay, select() and connect CPU): every frame waits its turn on
  // the node's CPU; the sort still verifies, same decisions up to the routes, and takes longer.
  Layout l = layout({3, 3, 2}, 2);
  auto makespan = [&](CostConfig costs) {
    ProtocolConfig cfg;
    cfg.overlay.shortcut_capacity = 2;
    cfg.costs = costs;
    cfg.workload.kind = WorkloadKind::IntSort;
    cfg.workload.intsort.total_keys = 5000;
    cfg.workload.intsort.iterations = 2;
    ToyWorld w(cfg, l.switch_of, l.host_of);
    REQUIRE(w.run());
    REQUIRE(w.reports["workload"].size() == 1);
    CHECK(w.reports["workload"][0]["verified"] == true);
    for (auto& n : w.reports["node"])
      CHECK(n["max_connections"].get<int>() <= n["static_connections"].get<int>() + 2);
    return w.reports["workload"][0]["makespan_ns"].get<TimeNs>();
  };
  const TimeNs free = makespan({});
  const TimeNs relay = makespan({100 * kNsPerUs, 0, 0});
  const TimeNs all = makespan({100 * kNsPerUs, 5 * kNsPerUs, 200 * kNsPerUs});
  CHECK(relay > free);
  CHECK(all > relay);
}

TEST_CASE("toy world: the same seed gives the same decisions", "[protocol][determinism]") {
  Layout l = layout({5, 5}, 1);
  ProtocolConfig cfg;
  cfg.overlay.shortcut_capacity = 2;
  cfg.workload.kind = WorkloadKind::IntSort;
  cfg.workload.intsort.total_keys = 2000;
  cfg.workload.intsort.iterations = 2;
  ToyWorld a(cfg, l.switch_of, l.host_of), b(cfg, l.switch_of, l.host_of);
  REQUIRE(a.run());
  REQUIRE(b.run());
  CHECK(trace_lines(a) == trace_lines(b));
}

TEST_CASE("toy world: a garbage frame is rejected with a reason, the run goes on",
          "[protocol][faults]") {
  Layout l = layout({3, 3}, 1);
  ProtocolConfig cfg;
  cfg.workload.kind = WorkloadKind::None;
  ToyWorld w(cfg, l.switch_of, l.host_of);
  bool corrupted = false;
  w.tamper = [&](int from, int to, Bytes& bytes) {
    // Corrupt the first route-round frame from rank 1 to rank 2.
    if (!corrupted && from == 1 && to == 2 && bytes.size() > 2 && bytes[2] == 6) {
      bytes[2] = 99;
      corrupted = true;
    }
    return true;
  };
  CHECK(w.run(5 * kNsPerSec));  // routes go around the closed link and everyone finishes
  REQUIRE(corrupted);
  bool rejected = false;
  for (auto& t : w.traces) {
    if (t.proc == "r2" && t.trace.kind == "frame_rejected") {
      rejected = true;
      CHECK_THAT(t.trace.detail["reason"].get<std::string>(),
                 Catch::Contains("unknown frame type 99"));
    }
  }
  CHECK(rejected);
}

TEST_CASE("toy world: a rank that never registers is named by the rendezvous",
          "[protocol][faults]") {
  Layout l = layout({2, 2}, 1);
  ProtocolConfig cfg;
  cfg.registration_timeout = 2 * kNsPerSec;
  ToyWorld w(cfg, l.switch_of, l.host_of);
  w.tamper = [](int from, int to, Bytes& bytes) {
    return !(from == 3 && to == 4 && bytes.size() > 2 && bytes[2] == 2);  // drop r3's register
  };
  CHECK_FALSE(w.run(10 * kNsPerSec));
  REQUIRE_FALSE(w.failures.empty());
  CHECK_THAT(w.failures[0], Catch::Contains("ranks never registered: [3]"));
}
