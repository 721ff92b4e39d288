// The shipped scenario files load and describe the networks their comments promise.
#include <algorithm>
#include <catch2/catch.hpp>

#include <map>
#include "tsunagi/model/topology/switch_inference.hpp"

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
