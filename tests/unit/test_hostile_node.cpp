// Issue 17: a node faced with frames no well-behaved peer sends (docs/security.md). Each case
// failed on the code before the fix: a rank past the process count indexed the route table
// (SIGSEGV), control frames were obeyed from any connection, a second relay list left the
// relay index past its list, and an empty directory under all-pairs probing was read past.
#include <catch2/catch.hpp>

#include "hostile_harness.hpp"

using namespace tsunagi;
using namespace tsunagi::hostile;
using wire::ConnPurpose;
using wire::FrameType;

namespace {

constexpr ConnId kToRank1 = 2;  // rank 0's static connection to rank 1 (its second connect)

// Rank 0 of two, plan all, routes built: it runs (workload none) over its static connection to
// rank 1.
Driven running_node() {
  Driven node = started_node(config(2), 0);
  node.frame(kToRendezvous, directory(2));
  node.frame(kToRendezvous, wire::make_groups(wire::GroupsMsgBody{Groups{{0}, {1}}, std::nullopt}));
  node.input(ConnectedInput{kToRank1});
  node.frame(kToRank1, wire::make_route_round(1, 0, {0, false, {{1, 0}}}));
  REQUIRE(node.traces("routes").size() == 1);
  return node;
}

// The `n`th stranger connected to `node`, greeted with any rank it likes.
ConnId stranger(Driven& node, Rank claimed, ConnPurpose purpose, std::uint64_t n = 1) {
  const ConnId id = node.accept(n);
  node.frame(id, wire::make_hello({claimed, purpose}));
  return id;
}

}  // namespace

TEST_CASE("hostile node: data for a rank past the process count is refused, the run goes on",
          "[hostile][node]") {
  Driven node = running_node();
  const ConnId evil = stranger(node, 1, ConnPurpose::Shortcut);
  const std::size_t mark = node.mark();
  // 78 bytes: a destination below the wire's 2^20 but not a process (there are 2).
  node.frame(evil, wire::make_data(1, 1000, 0, {7, {1, 2}}, 0));
  const auto reasons = node.rejections(mark);
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0] == "data destination rank 1000 is not a process of this run (2 processes)");
  CHECK(node.closed(evil, mark));
  CHECK(node.traces("undeliverable", mark).empty());

  const ConnId evil2 = stranger(node, 1, ConnPurpose::Shortcut, 2);
  node.frame(evil2, wire::make_data(5000, 0, 0, {7, {}}, 0));
  CHECK(mentions(node.rejections(mark), "data source rank 5000 is not a process"));

  // Unharmed: the rendezvous's shutdown is answered, with both refusals counted.
  node.frame(kToRendezvous, wire::make_shutdown());
  CHECK(has_type(node.sent(kToRendezvous, mark), FrameType::ShutdownAck));
  const auto reports = node.all<ReportCmd>(mark);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].value.at("frames_rejected") == 2);
  CHECK(reports[0].value.at("messages_undeliverable") == 0);
  CHECK_FALSE(node.exit());
}

TEST_CASE("hostile node: control frames from any connection but the rendezvous are refused",
          "[hostile][node]") {
  // Each frame would have steered the node: a directory or groups of the attacker's choosing,
  // probes aimed anywhere, poisoned endpoints, a forged start, unreachable peer or end of run.
  wire::RelayListMsg relays{{{"x-relay0", "x", "evil:1"}}, {}};
  const std::vector<std::pair<std::string, wire::Frame>> forged{
      {"directory", directory(2)},
      {"groups", wire::make_groups(wire::GroupsMsgBody{Groups{{0, 1}}, std::nullopt})},
      {"probe_order", wire::make_probe_order({1, 1, 1'000'000})},
      {"rtt_order", wire::make_rtt_order({0, {1}})},
      {"endpoint_reply", wire::make_endpoint_reply({{1}, {"evil:1"}})},
      {"relay_list", wire::make_relay_list(relays)},
      {"start", wire::make_start()},
      {"peer_unreachable", wire::make_peer_unreachable(1, 0)},
      {"shutdown", wire::make_shutdown()},
      {"release", wire::make_release()},
      {"window_order", wire::make_window_order({{0, 1}, {0, 0}, {"evil:1", "evil:2"}})},
  };
  for (const auto& [name, frame] : forged) {
    SECTION(name) {
      Driven node = started_node(config(2), 0);
      node.frame(kToRendezvous, directory(2));  // now waiting for the groups
      const ConnId evil = stranger(node, 1, ConnPurpose::Control);
      const std::size_t mark = node.mark();
      node.frame(evil, frame);
      // RTT orders and their endpoints may also come from a window's collector, on a
      // connection of that purpose (test_window_collector.cpp); never on a control connection.
      const bool collector_may = name == "rtt_order" || name == "endpoint_reply";
      CHECK(node.rejections(mark) ==
            std::vector<std::string>{name + (collector_may
                                                 ? " frames come from the rendezvous and a "
                                                   "window's collector only"
                                                 : " frames come from the rendezvous only")});
      CHECK(node.closed(evil, mark));
      // Nothing acted upon: no frame to the rendezvous, no probe, no connect, no plan, no exit.
      CHECK(node.sent(kToRendezvous, mark).empty());
      CHECK(node.all<ProbeRttCmd>(mark).empty());
      CHECK(node.all<ProbeThroughputCmd>(mark).empty());
      CHECK(node.all<ConnectCmd>(mark).empty());
      CHECK(node.traces("plan", mark).empty());
      CHECK_FALSE(node.exit());
      // The rendezvous is still obeyed.
      node.frame(kToRendezvous,
                 wire::make_groups(wire::GroupsMsgBody{Groups{{0}, {1}}, std::nullopt}));
      CHECK(node.traces("plan", mark).size() == 1);
      CHECK(node.all<ConnectCmd>(mark).size() == 1);
    }
  }
}

TEST_CASE("hostile node: data from the rendezvous's side or a control connection is refused",
          "[hostile][node]") {
  Driven node = running_node();
  const ConnId evil = stranger(node, 1, ConnPurpose::Control);
  const std::size_t mark = node.mark();
  node.frame(evil, wire::make_data(1, 0, 0, {7, {}}, 0));
  CHECK(node.rejections(mark) ==
        std::vector<std::string>{"data frames come from peers and the relay only"});
  const ConnId evil2 = stranger(node, 1, ConnPurpose::Control, 2);
  node.frame(evil2, wire::make_goodbye());
  CHECK(mentions(node.rejections(mark), "goodbye frames come from shortcuts only"));
}

TEST_CASE("hostile node: a second relay list mid-attach is refused, the attach completes",
          "[hostile][node][relay]") {
  auto cfg = config(2, PlanKind::Relay);
  cfg->relays = 2;
  Driven node = started_node(cfg, 0, "a");
  wire::RelayListMsg relays{{{"a-relay0", "a", "ra0:1"}, {"a-relay1", "a", "ra1:1"}}, {}};
  node.frame(kToRendezvous, wire::make_relay_list(relays));
  node.frame(kToRendezvous, directory(2));
  node.frame(kToRendezvous, wire::make_groups(wire::GroupsMsgBody{Groups{{0, 1}}, std::nullopt}));
  const auto connects = node.all<ConnectCmd>();
  REQUIRE(connects.size() >= 2);
  const ConnId relay = connects[1].conn;  // after the rendezvous: the attach to a-relay0
  REQUIRE(connects[1].to == "ra0:1");
  const std::size_t mark = node.mark();
  // Before the fix this emptied the list, and the attach completing read past its end.
  node.frame(kToRendezvous, wire::make_relay_list({}));
  CHECK(node.rejections(mark) == std::vector<std::string>{"relay list after the first one"});
  CHECK_FALSE(node.closed(kToRendezvous, mark));
  node.input(ConnectedInput{relay});
  const auto attached = node.traces("relay_attached", mark);
  REQUIRE(attached.size() == 1);
  CHECK(attached[0].detail.at("relay") == "a-relay0");
  // A lost relay falls back on the next one, named from the same list.
  node.input(ClosedInput{relay});
  CHECK(node.traces("relay_lost", mark).at(0).detail.at("relay") == "a-relay0");
  CHECK(node.all<ConnectCmd>(mark).back().to == "ra1:1");
}

TEST_CASE("hostile node: all-pairs probing with an empty directory fails with the reason",
          "[hostile][node][directory]") {
  // The loader refuses topology + on_demand + all_pairs; a core configured so anyway used to
  // read the host labels of an empty directory (a null dereference).
  auto cfg = config(4, PlanKind::TopologyAware);
  cfg->directory = DirectoryMode::OnDemand;
  cfg->inference.groups = GroupMethod::AllPairs;
  Driven node = started_node(cfg, 1);
  node.frame(kToRendezvous, wire::make_directory({}));
  REQUIRE(node.exit());
  CHECK_FALSE(node.exit()->ok);
  CHECK(node.exit()->reason == "all-pairs probing needs the full directory (directory = \"full\")");
  CHECK(node.traces("bad_directory").size() == 1);
  CHECK(node.all<ProbeRttCmd>().empty());
}

TEST_CASE("hostile node: lists of ranks from the rendezvous must name processes",
          "[hostile][node]") {
  Driven node = started_node(config(2), 0);
  node.frame(kToRendezvous, directory(2));
  std::size_t mark = node.mark();
  node.frame(kToRendezvous, wire::make_rtt_order({0, {1, 7}}));
  CHECK(node.rejections(mark) ==
        std::vector<std::string>{"rtt order target rank 7 is not a process of this run (2 "
                                 "processes)"});
  CHECK(node.all<ProbeRttCmd>(mark).empty());

  Driven other = started_node(config(2), 0);
  other.frame(kToRendezvous, directory(2));
  mark = other.mark();
  other.frame(kToRendezvous,
              wire::make_groups(wire::GroupsMsgBody{Groups{{0, 1, 9}}, std::nullopt}));
  CHECK(mentions(other.rejections(mark), "group member rank 9 is not a process"));
  CHECK(other.traces("plan", mark).empty());
}

TEST_CASE("hostile node: a placement that does not fit the plan is refused with its reason",
          "[hostile][node][hierarchy]") {
  const auto links = [](Rank leader, Rank parent, std::vector<Rank> children,
                        std::vector<Rank> below, std::vector<Rank> via) {
    return wire::LeaderLinks{leader,           parent,        0, 1, std::move(children),
                             std::move(below), std::move(via)};
  };
  struct Case {
    PlanKind plan;
    Groups groups;
    wire::LeaderLinks links;
    const char* reason;
  };
  const std::vector<Case> cases{
      {PlanKind::TopologyAware,
       {{0, 1}},
       links(0, kNoRank, {}, {}, {}),
       "leader links outside a hierarchical plan"},
      {PlanKind::Hierarchical,
       {{0, 1}, {2, 3}},
       links(0, kNoRank, {}, {}, {}),
       "a placement holds exactly one group"},
      {PlanKind::Hierarchical,
       {{2, 3}},
       links(2, kNoRank, {}, {}, {}),
       "a placement for a group without us"},
      {PlanKind::Hierarchical,
       {{0, 1}},
       links(3, kNoRank, {}, {}, {}),
       "a leader outside the group"},
      {PlanKind::Hierarchical, {{0, 1}}, links(1, 0, {}, {}, {}), "leader links sent to a member"},
      {PlanKind::Hierarchical,
       {{0, 1}},
       links(0, kNoRank, {2}, {2, 3}, {2, 3}),
       "a next hop below that is no child leader"},
      {PlanKind::Hierarchical,
       {{0, 1}},
       links(0, kNoRank, {2}, {3, 2}, {2, 2}),
       "leader links out of order"},
      {PlanKind::Hierarchical,
       {{0, 1}},
       links(0, 9, {}, {}, {}),
       "parent leader rank 9 is not a process of this run (4 processes)"},
  };
  for (const Case& c : cases) {
    INFO(c.reason);
    auto cfg = config(4, c.plan);
    cfg->inference.groups = GroupMethod::Partition;  // the rendezvous orders probes: none here
    cfg->overlay.routing = RoutingKind::FromGroups;
    Driven node = started_node(cfg, 0);
    node.frame(kToRendezvous, directory(4));
    const std::size_t mark = node.mark();
    node.frame(kToRendezvous, wire::make_groups({c.groups, c.links}));
    CHECK(node.rejections(mark) == std::vector<std::string>{c.reason});
    CHECK(node.traces("plan", mark).empty());
  }
  // The positive control: the same node takes a well-formed placement and plans by it.
  auto cfg = config(4, PlanKind::Hierarchical);
  cfg->inference.groups = GroupMethod::Partition;
  cfg->overlay.routing = RoutingKind::FromGroups;
  Driven node = started_node(cfg, 0);
  node.frame(kToRendezvous, directory(4));
  const std::size_t mark = node.mark();
  node.frame(kToRendezvous,
             wire::make_groups({Groups{{0, 1}}, links(0, kNoRank, {2}, {2, 3}, {2, 2})}));
  CHECK(node.rejections(mark).empty());
  REQUIRE(node.traces("plan", mark).size() == 1);
}
