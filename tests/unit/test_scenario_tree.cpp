// The regular tree generator and the ground-truth helpers (hosts, ranks, true groups).
#include <catch2/catch.hpp>

#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;

namespace {

TreeSpec two_level_tree() {
  TreeSpec spec;
  spec.levels = {{2, 1.25e9, 20 * kNsPerUs}, {3, 125e6, 10 * kNsPerUs}};
  spec.hosts_per_leaf = 5;
  spec.host_bandwidth = 125e6;
  spec.host_latency = 5 * kNsPerUs;
  return spec;
}

Scenario scenario_with(std::vector<SwitchSpec> switches, int procs_per_host, int processes) {
  Scenario s;
  s.network.switches = std::move(switches);
  s.placement.procs_per_host = procs_per_host;
  s.placement.processes = processes;
  return s;
}

SwitchSpec sw(const char* name, const char* parent, int hosts) {
  SwitchSpec out;
  out.name = name;
  out.parent = parent;
  out.hosts = hosts;
  return out;
}

}  // namespace

TEST_CASE("generate_tree: breadth-first names, parents and per-level links", "[scenario][tree]") {
  auto switches = generate_tree(two_level_tree());
  REQUIRE(switches.size() == 9);
  CHECK(tree_switch_count(two_level_tree()) == 9);
  const char* names[] = {"s", "s.0", "s.1", "s.0.0", "s.0.1", "s.0.2", "s.1.0", "s.1.1", "s.1.2"};
  const char* parents[] = {"", "s", "s", "s.0", "s.0", "s.0", "s.1", "s.1", "s.1"};
  for (std::size_t i = 0; i < switches.size(); ++i) {
    INFO(i);
    CHECK(switches[i].name == names[i]);
    CHECK(switches[i].parent == parents[i]);
    CHECK(switches[i].hosts == (i >= 3 ? 5 : 0));  // hosts on leaves only
  }
  CHECK(switches[1].uplink_bandwidth == Approx(1.25e9));
  CHECK(switches[1].uplink_latency == 20 * kNsPerUs);
  CHECK(switches[4].uplink_bandwidth == Approx(125e6));
  CHECK(switches[4].uplink_latency == 10 * kNsPerUs);
  CHECK(switches[4].host_latency == 5 * kNsPerUs);
}

TEST_CASE("generate_tree: no levels is one switch with every host", "[scenario][tree]") {
  TreeSpec spec;
  spec.hosts_per_leaf = 7;
  auto switches = generate_tree(spec);
  REQUIRE(switches.size() == 1);
  CHECK(switches[0].name == "s");
  CHECK(switches[0].parent.empty());
  CHECK(switches[0].hosts == 7);
}

TEST_CASE("tree_switch_count saturates instead of overflowing", "[scenario][tree]") {
  TreeSpec spec;
  for (int i = 0; i < 40; ++i) spec.levels.push_back({1000, 1, 1});
  CHECK(tree_switch_count(spec) > 1'000'000'000'000LL);
}

TEST_CASE("[network.tree] in a file builds the generator's tree", "[scenario][tree]") {
  Scenario s = load_scenario_string(R"(name = "t"
[network.tree]
levels = [ { fanout = 2, uplink_bandwidth = "10Gbps", uplink_latency = "20us" },
           { fanout = 3, uplink_bandwidth = "1Gbps", uplink_latency = "10us" } ]
hosts_per_leaf = 5
host_bandwidth = "1Gbps"
host_latency = "5us"
[workload]
kind = "none"
)",
                                    "tree.toml");
  auto expected = generate_tree(two_level_tree());
  REQUIRE(s.network.switches.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(s.network.switches[i].name == expected[i].name);
    CHECK(s.network.switches[i].parent == expected[i].parent);
    CHECK(s.network.switches[i].hosts == expected[i].hosts);
    CHECK(s.network.switches[i].uplink_latency == expected[i].uplink_latency);
  }
  CHECK(s.protocol.processes == 30);
  CHECK(true_switch_groups(s).size() == 6);
}

TEST_CASE("enumerate_hosts: unique names padded per switch", "[scenario][tree]") {
  Network net;
  net.switches = {sw("core", "", 1), sw("big", "core", 120), sw("empty", "core", 0)};
  auto hosts = enumerate_hosts(net);
  REQUIRE(hosts.size() == 121);
  CHECK(hosts[0].host == "core-h00");
  CHECK(hosts[0].switch_index == 0);
  CHECK(hosts[1].host == "big-h000");
  CHECK(hosts[120].host == "big-h119");
  CHECK(hosts[120].switch_index == 1);
}

TEST_CASE("placement: block order, process limit, groups skip empty switches", "[scenario][tree]") {
  auto s = scenario_with({sw("core", "", 0), sw("a", "core", 2), sw("b", "core", 3)}, 2, 0);
  CHECK(process_count(s) == 10);
  CHECK(rank_to_host(s) == std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4});
  CHECK(true_switch_groups(s) == Groups{{0, 1, 2, 3}, {4, 5, 6, 7, 8, 9}});

  s.placement.processes = 5;  // first 5 slots only: b gets a single rank
  CHECK(process_count(s) == 5);
  CHECK(rank_to_host(s) == std::vector<int>{0, 0, 1, 1, 2});
  CHECK(true_switch_groups(s) == Groups{{0, 1, 2, 3}, {4}});

  s.placement.processes = 3;  // b gets no rank and forms no group
  CHECK(true_switch_groups(s) == Groups{{0, 1, 2}});
}
