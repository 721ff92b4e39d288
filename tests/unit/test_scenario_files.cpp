// The shipped scenario files load and describe the networks their comments promise.
#include <algorithm>
#include <catch2/catch.hpp>

#include <map>
#include "tsunagi/model/topology/switch_inference.hpp"

#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;

namespace {

Scenario load(const std::string& relative) {
  return load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + relative);
}

std::vector<std::size_t> group_sizes(const Groups& groups) {
  std::vector<std::size_t> sizes;
  for (const auto& g : groups) sizes.push_back(g.size());
  return sizes;
}

// One-way latency between two hosts' switches along the tree (host links included), computed
// from the ground truth so the tests check the RTT structure the file comments claim.
TimeNs one_way_latency(const Network& net, int switch_a, int switch_b) {
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < net.switches.size(); ++i) {
    index[net.switches[i].name] = static_cast<int>(i);
  }
  auto up_path = [&](int s) {
    std::vector<int> path{s};
    while (!net.switches[static_cast<std::size_t>(path.back())].parent.empty()) {
      path.push_back(index.at(net.switches[static_cast<std::size_t>(path.back())].parent));
    }
    return path;
  };
  auto pa = up_path(switch_a);
  auto pb = up_path(switch_b);
  TimeNs total = net.switches[static_cast<std::size_t>(switch_a)].host_latency +
                 net.switches[static_cast<std::size_t>(switch_b)].host_latency;
  // Climb from each side until the common ancestor, adding each uplink crossed.
  for (int s : pa) {
    if (std::find(pb.begin(), pb.end(), s) != pb.end()) break;
    total += net.switches[static_cast<std::size_t>(s)].uplink_latency;
  }
  for (int s : pb) {
    if (std::find(pa.begin(), pa.end(), s) != pa.end()) break;
    total += net.switches[static_cast<std::size_t>(s)].uplink_latency;
  }
  return total;
}

// Paper 000 §2.1 for one rank, by the core's own inference on the scenario's ideal RTTs
// (2 × the one-way latency of the path). Returns the peers judged on the rank's switch.
std::vector<Rank> near_peers(const Scenario& s, Rank self) {
  auto hosts = enumerate_hosts(s.network);
  auto host_of = rank_to_host(s);
  auto switch_of = [&](Rank r) {
    return hosts[static_cast<std::size_t>(host_of[static_cast<std::size_t>(r)])].switch_index;
  };
  std::vector<RttSample> row;
  for (Rank r = 0; r < s.protocol.processes; ++r) {
    if (r != self)
      row.push_back({r, 2 * one_way_latency(s.network, switch_of(self), switch_of(r))});
  }
  return infer_own_switch(row, s.protocol.inference).near;
}

std::size_t near_peer_count(const Scenario& s, Rank self) {
  return near_peers(s, self).size();
}

// One-way latency between two nodes of a Dragonfly along SimGrid's route, node links included.
TimeNs dragonfly_latency(const DragonflySpec& df, int router_a, int router_b) {
  const auto path = dragonfly_router_path(df, router_a, router_b);
  std::map<std::pair<int, int>, DragonflyClass> kind;
  for (const DragonflyLink& l : dragonfly_links(df)) kind[{l.a, l.b}] = l.kind;
  TimeNs total = 2 * df.node.latency;
  for (std::size_t i = 1; i < path.size(); ++i)
    total +=
        link_figures(df, kind.at({std::min(path[i - 1], path[i]), std::max(path[i - 1], path[i])}))
            .latency;
  return total;
}

// The groups paper 000 §2.1 infers on a Dragonfly from ideal RTTs (2 x the one-way latency).
Groups dragonfly_inference(const Scenario& s) {
  const DragonflySpec& df = *s.network.dragonfly;
  const auto hosts = enumerate_hosts(s.network);
  auto router = [&](Rank r) { return hosts[static_cast<std::size_t>(r)].switch_index; };
  std::vector<std::vector<Rank>> views;
  for (Rank self = 0; self < s.protocol.processes; ++self) {
    std::vector<RttSample> row;
    for (Rank r = 0; r < s.protocol.processes; ++r)
      if (r != self) row.push_back({r, 2 * dragonfly_latency(df, router(self), router(r))});
    views.push_back(infer_own_switch(row, s.protocol.inference).near);
  }
  return combine_views(s.protocol.processes, views);
}

}  // namespace

TEST_CASE("teaching/two-switches.toml: 8 ranks on two edge switches", "[scenario][files]") {
  Scenario s = load("teaching/two-switches.toml");
  CHECK(s.name == "two-switches");
  CHECK(s.seed == 42);
  CHECK(s.protocol.seed == 42);
  CHECK(s.protocol.processes == 8);
  REQUIRE(s.network.switches.size() == 3);
  CHECK(s.network.switches[0].parent.empty());
  CHECK(s.network.switches[1].parent == "core");
  CHECK(s.network.switches[1].uplink_latency == 50 * kNsPerUs);
  CHECK(s.network.switches[1].host_bandwidth == Approx(125e6));
  CHECK(s.protocol.overlay.plan == PlanKind::TopologyAware);
  CHECK(s.protocol.overlay.shortcut_capacity == 2);
  CHECK(s.protocol.workload.kind == WorkloadKind::PingPong);
  CHECK(s.protocol.workload.pingpong.ping == 0);
  CHECK(s.protocol.workload.pingpong.pong == 7);
  CHECK(true_switch_groups(s) == Groups{{0, 1, 2, 3}, {4, 5, 6, 7}});
  auto hosts = enumerate_hosts(s.network);
  REQUIRE(hosts.size() == 8);
  CHECK(hosts.front().host == "edge1-h00");
  CHECK(hosts.back().host == "edge2-h03");
  // Cross-switch RTT is clearly larger than same-switch RTT (20 us vs 220 us).
  CHECK(2 * one_way_latency(s.network, 1, 1) == 20 * kNsPerUs);
  CHECK(2 * one_way_latency(s.network, 1, 2) == 220 * kNsPerUs);
  CHECK(near_peer_count(s, 0) == 3);
}

TEST_CASE("papers/kaneda-112.toml: 112 nodes, 8 switches of 14", "[scenario][files]") {
  Scenario s = load("papers/kaneda-112.toml");
  CHECK(s.protocol.processes == 112);
  CHECK(enumerate_hosts(s.network).size() == 112);
  CHECK(s.network.switches.size() == 11);  // root + 2 aggregation + 8 leaves
  Groups groups = true_switch_groups(s);
  CHECK(group_sizes(groups) == std::vector<std::size_t>(8, 14));
  CHECK(groups[1].front() == 14);
  // Every rank's sorted RTTs jump first between its 13th and 14th peer (paper 000 Fig. 4).
  std::vector<std::vector<Rank>> views;
  for (Rank r = 0; r < s.protocol.processes; ++r) {
    INFO("rank " << r);
    CHECK(near_peer_count(s, r) == 13);
    views.push_back(near_peers(s, r));
  }
  CHECK(combine_views(s.protocol.processes, views) == groups);
}

TEST_CASE("papers/kaneda-is-128.toml: 128 processes on 64 hosts, 6 switches", "[scenario][files]") {
  Scenario s = load("papers/kaneda-is-128.toml");
  CHECK(s.protocol.processes == 128);
  CHECK(s.placement.procs_per_host == 2);
  CHECK(enumerate_hosts(s.network).size() == 64);
  auto host_of = rank_to_host(s);
  CHECK(host_of[0] == host_of[1]);
  CHECK(host_of[1] != host_of[2]);
  CHECK(host_of[127] == 63);
  CHECK(group_sizes(true_switch_groups(s)) == std::vector<std::size_t>{22, 22, 22, 22, 20, 20});
  CHECK(s.protocol.overlay.plan == PlanKind::TopologyAware);
  CHECK(s.protocol.overlay.shortcut_capacity == 4);
  CHECK(s.protocol.overlay.random_k == 64);
  CHECK(s.protocol.workload.kind == WorkloadKind::IntSort);
  CHECK(s.protocol.workload.intsort.total_keys == 8388608u);
  CHECK(s.protocol.workload.intsort.max_key == 524288u);
  CHECK(s.protocol.workload.intsort.iterations == 10);
  CHECK(s.protocol.seed == s.seed);
  // Two processes of one host are nearer to each other than to any switch mate.
  CHECK(2 * s.network.loopback_latency < 2 * one_way_latency(s.network, 1, 1));
}

TEST_CASE("teaching/dragonfly-16.toml: 2 groups x 2 chassis x 2 routers x 2 nodes",
          "[scenario][files][dragonfly]") {
  Scenario s = load("teaching/dragonfly-16.toml");
  REQUIRE(s.network.dragonfly);
  const DragonflySpec& df = *s.network.dragonfly;
  CHECK(
      df ==
      DragonflySpec{
          2, 2, 2, 2, {1.25e9, 2000, 1}, {1.25e9, 2000, 1}, {1.25e9, 2000, 1}, {1.25e9, 2000, 1}});
  CHECK(s.protocol.processes == 16);
  CHECK(group_sizes(true_switch_groups(s)) == std::vector<std::size_t>(8, 2));
  // Ping-pong from g0.c0.r0 to g1.c1.r1 crosses green, blue, green, black; from chassis 1 a
  // route starts with green and black to the blue link: five router links.
  CHECK(dragonfly_router_path(df, 0, 7) == std::vector<int>{0, 1, 4, 5, 7});
  CHECK(dragonfly_router_path(df, 2, 7).size() == 6);
  CHECK(s.simgrid.rtt_probe == "route");
  CHECK(dragonfly_inference(s) == true_switch_groups(s));
}

TEST_CASE("teaching/dragonfly-64.toml: 16 routers of 4 nodes, equal RTT steps",
          "[scenario][files][dragonfly]") {
  Scenario s = load("teaching/dragonfly-64.toml");
  const DragonflySpec& df = *s.network.dragonfly;
  CHECK(router_count(df) == 16);
  CHECK(s.protocol.processes == 64);
  CHECK(df.black.count == 2);
  // Every link class carries 10 Gbit/s, parallel links included.
  for (DragonflyClass kind : {DragonflyClass::Green, DragonflyClass::Black, DragonflyClass::Blue})
    CHECK(link_figures(df, kind).bandwidth == Approx(1.25e9));
  CHECK(s.protocol.workload.kind == WorkloadKind::Multicast);
  CHECK(s.protocol.workload.multicast.group_sizes == std::vector<int>{4, 16, 63});
  // 4 us on one router, 2 us more per router link: 12 us between ping and pong (4 links),
  // 14 us at most (5 links, from chassis 1 of group 0).
  CHECK(2 * dragonfly_latency(df, 0, 0) == 4 * kNsPerUs);
  CHECK(2 * dragonfly_latency(df, 0, 15) == 12 * kNsPerUs);
  CHECK(2 * dragonfly_latency(df, 4, 15) == 14 * kNsPerUs);
  // The file's claims: ideal RTTs give the routers (first of equal steps); a longer blue link
  // moves the largest step to the global links and gives the two groups.
  CHECK(dragonfly_inference(s) == true_switch_groups(s));
  Scenario slow_blue =
      load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/teaching/dragonfly-64.toml",
                         {"network.dragonfly.blue.latency=5us"});
  CHECK(group_sizes(dragonfly_inference(slow_blue)) == std::vector<std::size_t>{32, 32});
}

TEST_CASE("papers/xc30-256.toml: one Aries group, 256 workers and the master",
          "[scenario][files][dragonfly]") {
  Scenario s = load("papers/xc30-256.toml");
  const DragonflySpec& df = *s.network.dragonfly;
  CHECK(df.groups == 1);
  CHECK(df.chassis == 6);
  CHECK(df.routers == 16);
  CHECK(df.nodes == 4);
  CHECK(df.black.count == 3);
  CHECK(df.green.count == 1);
  CHECK(df.node == DragonflyLinks{5.25e9, 100, 1});
  CHECK(link_figures(df, DragonflyClass::Black).bandwidth == Approx(3 * 5.25e9));
  CHECK(s.network.loopback_bandwidth == Approx(20e9));
  CHECK(s.network.loopback_latency == 10);
  CHECK(enumerate_hosts(s.network).size() == 384);
  CHECK(s.protocol.processes == 257);
  CHECK(s.protocol.workload.kind == WorkloadKind::Multicast);
  CHECK(s.protocol.workload.multicast.group_sizes == std::vector<int>{8, 16, 32, 64, 128, 256});
  CHECK(s.protocol.workload.multicast.sizes == std::vector<std::uint64_t>{81920, 8388608});
  // The master is alone on router g0.c4.r0; the workers fill chassis 0-3.
  const auto hosts = enumerate_hosts(s.network);
  CHECK(hosts[256].host == "g0.c4.r0-h00");
  CHECK(hosts[255].host == "g0.c3.r15-h03");
  const Groups groups = true_switch_groups(s);
  CHECK(groups.size() == 65);
  CHECK(groups.back() == std::vector<Rank>{256});
}

TEST_CASE("papers/xc30-256-multigroup.toml: the same ranks over two groups",
          "[scenario][files][dragonfly]") {
  Scenario s = load("papers/xc30-256-multigroup.toml");
  const DragonflySpec& df = *s.network.dragonfly;
  CHECK(df.groups == 2);
  CHECK(df.chassis == 3);
  CHECK(df.blue.count == 4);
  CHECK(s.protocol.processes == 257);
  const auto hosts = enumerate_hosts(s.network);
  REQUIRE(hosts.size() == 384);
  CHECK(hosts[191].host == "g0.c2.r15-h03");
  CHECK(hosts[192].host == "g1.c0.r0-h00");
  CHECK(hosts[256].host == "g1.c1.r0-h00");
  // Master to worker 0 crosses the blue link.
  const auto path = dragonfly_router_path(df, hosts[256].switch_index, hosts[0].switch_index);
  CHECK(router_coords(df, path.front()).group == 1);
  CHECK(router_coords(df, path.back()).group == 0);
}
