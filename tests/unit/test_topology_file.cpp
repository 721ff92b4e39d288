// topology.json: the true network the run report draws, for the three kinds of network
// (a switch tree, clusters behind routers, a Dragonfly), from the repository's scenario files.
#include <catch2/catch.hpp>

#include <string>

#include "tsunagi/runner/results/topology_file.hpp"
#include "tsunagi/scenarios/loader.hpp"

using nlohmann::ordered_json;

namespace {

ordered_json topology_of(const std::string& file) {
  return tsunagi::runner::topology_json(tsunagi::scenario::load_scenario_file(
      std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + file));
}

}  // namespace

TEST_CASE("topology.json: a switch tree, parents by index, ranks on their switch, links",
          "[runner]") {
  const ordered_json t = topology_of("teaching/two-switches.toml");
  CHECK(t["kind"] == "tree");
  REQUIRE(t["switches"].size() == 3);
  CHECK(t["switches"][0] == ordered_json({{"name", "core"}, {"parent", -1}, {"cluster", -1}}));
  CHECK(t["switches"][2]["parent"] == 0);
  // Issue 33: each link's figures, as graph tools take them (bits/s, one-way ns).
  const ordered_json gigabit_50us = {{"bandwidth_bps", 1e9}, {"latency_ns", 50'000}};
  CHECK(t["switches"][1]["uplink"] == gigabit_50us);
  CHECK(t["switches"][1]["host_link"] ==
        ordered_json({{"bandwidth_bps", 1e9}, {"latency_ns", 5'000}}));
  REQUIRE(t["ranks"].size() == 8);
  CHECK(t["ranks"][0] == ordered_json({{"host", "edge1-h00"}, {"switch", 1}}));
  CHECK(t["ranks"][7] == ordered_json({{"host", "edge2-h03"}, {"switch", 2}}));
  CHECK(t["clusters"].empty());
  CHECK(t["relays"].empty());
}

TEST_CASE("topology.json: clusters with their policies and relays", "[runner]") {
  const ordered_json t = topology_of("papers/ssock-11-small.toml");
  CHECK(t["kind"] == "wan");
  REQUIRE(t["clusters"].size() == 11);
  REQUIRE(t["relays"].size() == 11);
  for (const auto& relay : t["relays"]) {
    const int cluster = relay["cluster"].get<int>();
    REQUIRE(cluster >= 0);
    REQUIRE(cluster < 11);
    // A relay's label starts with its cluster's name ("chiba-relay0", "imade-gw0").
    const std::string name = t["clusters"][static_cast<std::size_t>(cluster)]["name"];
    CHECK(relay["label"].get<std::string>().rfind(name + "-", 0) == 0);
  }
  for (const auto& sw : t["switches"]) CHECK(sw["cluster"].get<int>() >= 0);
  CHECK(t["clusters"][0]["wan_link"] ==
        ordered_json({{"bandwidth_bps", 1e9}, {"latency_ns", 3'000'000}}));
  CHECK(t["ranks"].size() == 22);
}

TEST_CASE("topology.json: a Dragonfly's routers carry their group", "[runner]") {
  const ordered_json t = topology_of("teaching/dragonfly-64.toml");
  CHECK(t["kind"] == "dragonfly");
  REQUIRE(t["switches"].size() == 16);
  CHECK(t["switches"][0]["group"] == 0);
  CHECK(t["switches"][15]["group"] == 1);
  for (const auto& sw : t["switches"]) CHECK(sw["parent"] == -1);
  CHECK(t["ranks"].size() == 64);
}
