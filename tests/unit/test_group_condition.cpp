// The condition under which switch-group inference is guaranteed right (runner/results/src/
// group_condition.cpp, docs/tree-inference.md), on small trees, a Dragonfly and a WAN.
#include <catch2/catch.hpp>

#include <string>

#include "tsunagi/runner/results/result.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using Catch::Matchers::Contains;

namespace {

runner::RunFacts facts_of(const std::string& network, const std::string& inference = "") {
  const std::string text = "name = \"t\"\n" + network + "\n[protocol]\nplan = \"topology\"\n" +
                           "[protocol.inference]\n" + inference + "\n[workload]\nkind = \"none\"\n";
  const scenario::Scenario s = scenario::load_scenario_string(text, "t.toml");
  return runner::facts_from_scenario(s, "simgrid", {1, true, "", ""}, 0);
}

std::string tree(const std::string& leaf_latency, const std::string& root_latency,
                 int hosts_per_leaf = 2) {
  return "[network.tree]\nlevels = [{fanout = 2, uplink_latency = \"" + root_latency +
         "\"}, {fanout = 2, uplink_latency = \"" + leaf_latency +
         "\"}]\nhosts_per_leaf = " + std::to_string(hosts_per_leaf) + "\nhost_latency = \"5us\"\n";
}

}  // namespace

TEST_CASE("group condition: equal steps on every level hold", "[group_condition]") {
  // Own switch 20 us, each level +40 us: every step ties, the innermost is the switch.
  const auto facts = facts_of(tree("10us", "10us"));
  CHECK(facts.groups_condition_holds);
  CHECK(facts.groups_condition == "holds");
}

TEST_CASE("group condition: an outer step beyond the tie tolerance breaks it",
          "[group_condition]") {
  // Switch step 4 x 2 us = 8 us; the root level adds 4 x 20 = 80 us: the cut goes there.
  const auto far = facts_of(tree("2us", "20us"));
  CHECK_FALSE(far.groups_condition_holds);
  CHECK_THAT(far.groups_condition, Contains("a step further out is larger"));
  // With the paper's rule (no tolerance) an outer step only 10 % larger already breaks it;
  // the default tolerance (25 %) accepts it.
  CHECK_FALSE(facts_of(tree("10us", "11us"), "tie_tolerance = 0").groups_condition_holds);
  CHECK(facts_of(tree("10us", "11us")).groups_condition_holds);
}

TEST_CASE("group condition: a small switch step fails the significance guard",
          "[group_condition]") {
  // Own switch 4 x 50 us = 200 us, the next 4 x 5 us further: 10 % < min_jump_ratio.
  const std::string slow_hosts =
      "[network.tree]\nlevels = [{fanout = 2, uplink_latency = \"5us\"}]\nhosts_per_leaf = 3\n"
      "host_latency = \"50us\"\n";
  const auto facts = facts_of(slow_hosts);
  CHECK_FALSE(facts.groups_condition_holds);
  CHECK_THAT(facts.groups_condition, Contains("below min_jump_ratio"));
}

TEST_CASE("group condition: switches whose processes share one host", "[group_condition]") {
  // One host per leaf, two processes on it: two such switches could name each other.
  const auto facts = facts_of(tree("10us", "10us", 1) + "[placement]\nprocs_per_host = 2\n");
  CHECK_FALSE(facts.groups_condition_holds);
  CHECK_THAT(facts.groups_condition, Contains("share one host"));
}

TEST_CASE("group condition: dragonfly-16 holds, a WAN is not computed", "[group_condition]") {
  const std::string dragonfly =
      "[network.dragonfly]\ngroups = 2\nchassis = 2\nrouters = 2\nnodes = 2\n"
      "bandwidth = \"10Gbps\"\nlatency = \"2us\"\n";
  CHECK(facts_of(dragonfly).groups_condition_holds);
  const scenario::Scenario wan = scenario::load_scenario_file(
      std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/papers/ssock-11-small.toml");
  const auto facts = runner::facts_from_scenario(wan, "simgrid", {1, true, "", ""}, 0);
  CHECK_FALSE(facts.groups_condition_holds);
  CHECK_THAT(facts.groups_condition, Contains("not computed"));
}
