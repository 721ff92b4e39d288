// The random switched-tree generator: seeded, within its ranges, parents first, hosts on
// leaves only; and its keys' errors in scenario files.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;

TEST_CASE("random tree: ranges, order and leaves over many seeds", "[random_tree]") {
  RandomTreeSpec spec;
  spec.uplink_bandwidths = {125e6, 1.25e9};
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    spec.seed = seed;
    const auto switches = generate_random_tree(spec);
    REQUIRE(switches == generate_random_tree(spec));  // same seed, same tree
    std::map<std::string, int> depth{{switches[0].name, 0}};
    std::map<std::string, int> children;
    for (std::size_t i = 1; i < switches.size(); ++i) {
      REQUIRE(depth.count(switches[i].parent) == 1);  // parent listed before the child
      depth[switches[i].name] = depth[switches[i].parent] + 1;
      ++children[switches[i].parent];
      CHECK((switches[i].uplink_bandwidth == 125e6 || switches[i].uplink_bandwidth == 1.25e9));
    }
    int deepest = 0;
    for (const auto& sw : switches) {
      deepest = std::max(deepest, depth[sw.name]);
      const bool inner = children.count(sw.name) != 0;
      if (inner) {
        CHECK(sw.hosts == 0);
        CHECK(children[sw.name] >= spec.fanout_min);
        CHECK(children[sw.name] <= spec.fanout_max);
      } else {
        CHECK(sw.hosts >= spec.hosts_min);
        CHECK(sw.hosts <= spec.hosts_max);
      }
    }
    CHECK(deepest >= spec.depth_min);
    CHECK(deepest <= spec.depth_max);
  }
}

TEST_CASE("random tree: every level shares one speed", "[random_tree]") {
  RandomTreeSpec spec;
  spec.seed = 3;
  spec.uplink_bandwidths = {1e8, 2e8, 3e8, 4e8};
  const auto switches = generate_random_tree(spec);
  std::map<std::size_t, std::set<double>> by_level;
  for (const auto& sw : switches) {
    if (sw.parent.empty()) continue;
    by_level[static_cast<std::size_t>(std::count(sw.name.begin(), sw.name.end(), '.'))].insert(
        sw.uplink_bandwidth);
  }
  for (const auto& [level, speeds] : by_level) CHECK(speeds.size() == 1);
}

TEST_CASE("random tree: bad keys name the key and the fix", "[random_tree]") {
  const std::string head = "name = \"t\"\n[network.random_tree]\n";
  auto error_of = [&](const std::string& body) {
    try {
      load_scenario_string(head + body, "t.toml");
    } catch (const ScenarioError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error_of("depth = [3, 2]\n"), Catch::Contains("network.random_tree.depth"));
  CHECK_THAT(error_of("depth = [3, 2]\n"), Catch::Contains("write depth = [2, 4]"));
  CHECK_THAT(error_of("fanout = \"many\"\n"), Catch::Contains("not a range"));
  CHECK_THAT(error_of("uplink_bandwidth = [\"fast\"]\n"), Catch::Contains("list of strings"));
  CHECK_THAT(error_of("uplink_bandwidth = []\n"), Catch::Contains("empty list"));
  CHECK(error_of("seed = 4\nhosts_per_leaf = [1, 2]\n").empty());
}
