// groups = "partition" with windows (issue 30): a window's rounds run by one of its ranks, the
// collector (partition_collector.hpp, node_collector.cpp). The frames between rendezvous and
// collector, the collector's orders to its leaders and its answer, a leader answering on the
// collector's connection, what either refuses, and the rendezvous checking an answer against
// the window it handed out.
#include <catch2/catch.hpp>

#include <algorithm>

#include "hostile_harness.hpp"
#include "rendezvous/partition_collector.hpp"
#include "rendezvous/partition_inference.hpp"

using namespace tsunagi;
using namespace tsunagi::hostile;
using wire::ConnPurpose;
using wire::FrameType;

namespace {

std::shared_ptr<ProtocolConfig> partition_config(int processes) {
  auto cfg = config(processes, PlanKind::TopologyAware);
  cfg->inference.groups = GroupMethod::Partition;
  cfg->inference.rtt_samples = 1;
  cfg->inference.rtt_parallel = 4;
  return cfg;
}

// Rank `rank` of `n`, registered, directory in: waiting for orders and groups.
Driven awaiting_node(int n, Rank rank) {
  Driven node = started_node(partition_config(n), rank);
  node.frame(kToRendezvous, directory(n));
  REQUIRE(has_type(node.sent(kToRendezvous), FrameType::RttReport));
  return node;
}

wire::WindowOrderMsg window_of(std::vector<Rank> ranks) {
  wire::WindowOrderMsg order;
  for (Rank r : ranks) {
    order.rep_offsets.push_back(0);
    order.endpoints.push_back(endpoint_of(r));
  }
  order.ranks = std::move(ranks);
  return order;
}

template <class T>
T decoded(wire::Decoded<T> d) {
  if (const auto* e = std::get_if<wire::DecodeError>(&d)) FAIL(e->reason);
  return std::get<T>(std::move(d));
}

// Why a frame does not decode ("" when it does).
std::string refusal(const wire::Frame& f) {
  const auto reason = [](const auto& d) {
    const auto* e = std::get_if<wire::DecodeError>(&d);
    return e ? e->reason : std::string();
  };
  return f.type == FrameType::WindowOrder ? reason(wire::read_window_order(f))
                                          : reason(wire::read_window_groups(f));
}

}  // namespace

TEST_CASE("window frames: round trip, and garbage refused with a reason", "[partition][wire]") {
  wire::WindowOrderMsg order{{4, 5, 6, 9}, {0, 1, 0, 0}, {"s.1-h04:0", "s.1-h06:0", "x:1"}};
  const auto back = decoded(wire::read_window_order(wire::make_window_order(order)));
  CHECK(back.ranks == order.ranks);
  CHECK(back.rep_offsets == order.rep_offsets);
  CHECK(back.endpoints == order.endpoints);

  wire::WindowGroupsMsg answer{{{4, 5}, {6}, {9}}, {{4, 6, 40'000}, {6, 9, 61'000}}, 12, 2, 5};
  const auto got = decoded(wire::read_window_groups(wire::make_window_groups(answer)));
  CHECK(got.groups == answer.groups);
  CHECK(got.links == answer.links);
  CHECK(got.probes == 12);
  CHECK(got.levels == 2);
  CHECK(got.max_probes_per_rank == 5);

  // Out of order, twice, an offset past the start or onto a host-mate, endpoints missing.
  CHECK(refusal(wire::make_window_order({{5, 4}, {0, 0}, {"a", "b"}})) ==
        "window_order: window ranks not in order");
  CHECK(refusal(wire::make_window_order({{4, 4}, {0, 0}, {"a", "b"}})) ==
        "window_order: a window rank twice");
  CHECK(refusal(wire::make_window_order({{4, 5}, {1, 0}, {"a"}})) ==
        "window_order: host offset 1 of rank 4 names no measuring rank");
  CHECK(refusal(wire::make_window_order({{4, 5, 6}, {0, 1, 1}, {"a"}})) ==
        "window_order: host offset 1 of rank 6 names no measuring rank");
  CHECK_FALSE(refusal(wire::make_window_order({{4, 5}, {0, 0}, {"a"}})).empty());
  CHECK(refusal(wire::make_window_order({{4, 5}, {0, 0}, {"a", ""}})) ==
        "window_order: empty endpoint in a window order");
  CHECK(refusal(wire::make_window_groups({{{4}}, {{4, 4, 9}}, 0, 0, 0})) ==
        "window_groups: a link between ranks 4 and 4");
  CHECK(refusal(wire::make_window_groups({{{4}, {}}, {}, 0, 0, 0})) ==
        "window_groups: an empty group");
  wire::Frame huge = wire::make_window_groups({{{4}}, {}, 0, 0, 0});
  huge.payload[0] = 0x7f;  // 127 groups announced, 4 of them could fit
  CHECK(refusal(huge) == "window_groups: 127 groups do not fit");
}

TEST_CASE("window collector: orders its leaders over connections of its own, answers once",
          "[partition][node]") {
  Driven node = awaiting_node(3, 0);
  std::size_t mark = node.mark();
  node.frame(kToRendezvous, wire::make_window_order(window_of({0, 1, 2})));
  // Three hosts: ranks 1 and 2 lead, each over a connection of the collector's; the collector
  // leads nothing (its link carries the rounds' traffic) and is only measured.
  const auto connects = node.all<ConnectCmd>(mark);
  REQUIRE(connects.size() == 2);
  CHECK(connects[0].to == endpoint_of(1));
  CHECK(connects[1].to == endpoint_of(2));
  // Nothing is measured while the collector's link still carries connects, handshakes and
  // endpoint lists: they would queue the probes that cross it. Each leader gets its targets'
  // endpoints and an empty order first; the orders go out once every leader answered it.
  node.input(ConnectedInput{connects[0].conn});
  node.input(ConnectedInput{connects[1].conn});
  for (const ConnectCmd& c : connects) {
    const auto frames = node.sent(c.conn, mark);
    REQUIRE(frames.size() == 3);
    CHECK(decoded(wire::read_hello(frames[0])).purpose == ConnPurpose::Collect);
    CHECK(decoded(wire::read_endpoint_reply(frames[1])).ranks.size() == 2);
    const auto prime = decoded(wire::read_rtt_order(frames[2]));
    CHECK(prime.targets.empty());
  }
  CHECK(node.all<ProbeRttCmd>(mark).empty());
  node.frame(connects[0].conn, wire::make_rtt_column({1, {}, {}}));
  CHECK(node.all<ProbeRttCmd>(mark).empty());
  CHECK(node.sent(connects[0].conn, mark).size() == 3);
  node.frame(connects[1].conn, wire::make_rtt_column({1, {}, {}}));
  CHECK(node.all<ProbeRttCmd>(mark).empty());
  for (const ConnectCmd& c : connects) {
    const auto frames = node.sent(c.conn, mark);
    REQUIRE(frames.size() == 4);
    const auto order = decoded(wire::read_rtt_order(frames[3]));
    CHECK(order.round == 0);
    CHECK(order.targets.size() == 2);
  }
  CHECK_FALSE(has_type(node.sent(kToRendezvous, mark), FrameType::WindowGroups));
  // Ranks 0 and 1 share a switch (20 us), rank 2 is far (100 us).
  node.frame(connects[0].conn, wire::make_rtt_column({0, {0, 2}, {20'000, 100'000}}));
  mark = node.mark();
  node.frame(connects[1].conn, wire::make_rtt_column({0, {0, 1}, {100'000, 100'000}}));
  const auto to_rendezvous = node.sent(kToRendezvous, mark);
  REQUIRE(to_rendezvous.size() == 1);
  const auto answer = decoded(wire::read_window_groups(to_rendezvous[0]));
  Groups groups = answer.groups;
  std::sort(groups.begin(), groups.end());
  CHECK(groups == Groups{{0, 1}, {2}});
  REQUIRE(answer.links.size() == 1);
  CHECK(answer.links[0].rtt == 100'000);
  CHECK(answer.probes == 4);
  CHECK(node.closed(connects[0].conn, mark));
  CHECK(node.closed(connects[1].conn, mark));
  CHECK_FALSE(node.exit());
}

TEST_CASE("window collector: a leader it cannot reach fails the run, naming it",
          "[partition][node]") {
  Driven node = awaiting_node(3, 0);
  const std::size_t mark = node.mark();
  node.frame(kToRendezvous, wire::make_window_order(window_of({0, 1, 2})));
  const auto connects = node.all<ConnectCmd>(mark);
  REQUIRE(connects.size() == 2);
  node.input(ConnectFailedInput{connects[1].conn, ConnectFailure::Refused});
  REQUIRE(node.exit());
  CHECK_FALSE(node.exit()->ok);
  CHECK(node.exit()->reason == "window leader rank 2 lost: refused");
  CHECK(node.traces("window_leader_lost").size() == 1);
}

TEST_CASE("window leader: answers the collector on the collector's connection only",
          "[partition][node][hostile]") {
  Driven node = awaiting_node(3, 1);
  const ConnId collector = node.accept(1);
  node.frame(collector, wire::make_hello({0, ConnPurpose::Collect}));
  std::size_t mark = node.mark();
  node.frame(collector, wire::make_endpoint_reply({{0, 2}, {endpoint_of(0), endpoint_of(2)}}));
  node.frame(collector, wire::make_rtt_order({0, {0, 2}}));
  const auto echoes = node.all<ProbeRttCmd>(mark);  // one echo per peer (rtt_samples = 1)
  REQUIRE(echoes.size() == 2);
  CHECK(node.all<ConnectCmd>(mark).empty());  // no endpoint asked of the rendezvous either
  CHECK(node.sent(kToRendezvous, mark).empty());
  node.input(RttMeasuredInput{echoes[0].probe, 20'000, true});
  node.input(RttMeasuredInput{echoes[1].probe, 90'000, true});
  const auto back = node.sent(collector, mark);
  REQUIRE(back.size() == 1);
  const auto column = decoded(wire::read_rtt_column(back[0]));
  CHECK(column.peers == std::vector<Rank>{0, 2});
  CHECK(node.sent(kToRendezvous, mark).empty());

  // A column is never taken from a connection this node did not open to a leader.
  mark = node.mark();
  node.frame(collector, wire::make_rtt_column({0, {2}, {5}}));
  CHECK(node.rejections(mark) ==
        std::vector<std::string>{"rtt_column frames come from leaders this node ordered only"});
  CHECK(node.closed(collector, mark));
  CHECK_FALSE(node.exit());
}

TEST_CASE("window leader: a collect connection outside inference is refused",
          "[partition][node][hostile]") {
  Driven node = started_node(partition_config(2), 1);  // registered, no directory yet
  const ConnId early = node.accept(1);
  const std::size_t mark = node.mark();
  node.frame(early, wire::make_hello({0, ConnPurpose::Collect}));
  CHECK(node.rejections(mark) == std::vector<std::string>{"collect connection outside inference"});
  CHECK(node.closed(early, mark));
}

TEST_CASE("partition inference: a collector's answer must be a partition of its window",
          "[partition]") {
  // Two switches of four hosts: the chain proves the boundary between hosts 3 and 4, and with
  // windows of two hosts each switch is a window, collected by ranks 0 and 4.
  std::vector<std::string> hosts;
  for (int h = 0; h < 8; ++h) hosts.push_back("h" + std::to_string(h));
  InferenceConfig cfg;
  PartitionInference inference(hosts, cfg, 2);
  for (const auto& order : inference.take_orders()) {
    const Rank next = order.targets.at(0);
    REQUIRE(inference.on_column(order.from, {{next, order.from == 3 ? 60'000 : 20'000}}));
  }
  const auto windows = inference.take_windows();
  REQUIRE(windows.size() == 2);
  CHECK(windows[0].collector == 0);
  CHECK(windows[1].collector == 4);
  CHECK(windows[1].order.ranks == std::vector<Rank>{4, 5, 6, 7});

  const auto answer = [](Groups groups) { return wire::WindowGroupsMsg{groups, {}, 6, 1, 4}; };
  CHECK(inference.on_window(1, answer({{0, 1, 2, 3}})) ==
        "window groups from a rank that collects no window");
  CHECK(inference.on_window(0, answer({{0, 1, 2, 3, 4}})) ==
        "window groups name rank 4 outside the window");
  CHECK(inference.on_window(0, answer({{0, 1}, {1, 2, 3}})) == "window groups name rank 1 twice");
  CHECK(inference.on_window(0, answer({{0, 1, 2}})) ==
        "window groups place 3 of the window's 4 ranks");
  wire::WindowGroupsMsg far = answer({{0, 1}, {2, 3}});
  far.links = {{0, 5, 9}};
  CHECK(inference.on_window(0, far) == "a window link outside the window or without an RTT");
  CHECK_FALSE(inference.finished());
  CHECK_FALSE(inference.on_window(0, answer({{0, 1, 2, 3}})));
  CHECK(inference.on_window(0, answer({{0, 1, 2, 3}})) ==
        "window groups from a rank that collects no window");  // once
  CHECK_FALSE(inference.on_window(4, answer({{4, 5, 6, 7}})));
  REQUIRE(inference.finished());
  CHECK(inference.groups() == Groups{{0, 1, 2, 3}, {4, 5, 6, 7}});
  CHECK(inference.max_probes_per_rank() == 4);
  CHECK(inference.probes() == 7 + 12);  // the chain's seven, the windows' six each
  CHECK_FALSE(inference.fell_back());
}
