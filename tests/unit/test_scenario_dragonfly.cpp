// [network.dragonfly] (issue 13): the shape, host numbering and routes of SimGrid's Dragonfly
// zone, the link classes, every error with its line and fix, and the runner's tree scoring.
// Documents start on line 1 right after R"( so line numbers can be read off.
#include <catch2/catch.hpp>

#include <set>

#include "tsunagi/runner/results/result.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"
#include "scenario_failure.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// SimGrid's "3,4;2,3;3,1;2": 3 groups (4 blue links each), 2 chassis (3 black), 3 routers
// (1 green), 2 nodes. Lines 1-12; tests append from line 13 on.
const std::string kDragonfly = R"(name = "df"
[network]
loopback_latency = "10ns"
[network.dragonfly]
groups = 3
chassis = 2
routers = 3
nodes = 2
bandwidth = "10Gbps"
latency = "1us"
blue = { count = 4, latency = "2us" }
black = { count = 3 }
)";

Scenario load(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return load_scenario_string(text, "df.toml", overrides);
}

using Failure = tsunagi::test::ScenarioFailure;

Failure failure_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return tsunagi::test::scenario_failure(text, "df.toml", overrides);
}

// The minimal Dragonfly shape for error tests: lines 1-6.
const std::string kSmall = R"(name = "df"
[network.dragonfly]
groups = 2
chassis = 2
routers = 2
nodes = 1
)";

}  // namespace

TEST_CASE("dragonfly: shape, link classes and their defaults", "[scenario][dragonfly]") {
  const Scenario s = load(kDragonfly);
  REQUIRE(s.network.dragonfly);
  const DragonflySpec& df = *s.network.dragonfly;
  CHECK(df.groups == 3);
  CHECK(df.chassis == 2);
  CHECK(df.routers == 3);
  CHECK(df.nodes == 2);
  CHECK(df.node == DragonflyLinks{1.25e9, 1000, 1});  // the Dragonfly's own figures
  CHECK(df.green == DragonflyLinks{1.25e9, 1000, 1});
  CHECK(df.black == DragonflyLinks{1.25e9, 1000, 3});
  CHECK(df.blue == DragonflyLinks{1.25e9, 2000, 4});
  CHECK(link_figures(df, DragonflyClass::Blue).bandwidth == Approx(5e9));  // 4 links as one
  CHECK(s.protocol.processes == 36);
  CHECK(s.network.clusters.empty());
}

TEST_CASE("dragonfly: routers are switches, nodes follow SimGrid's numbering",
          "[scenario][dragonfly]") {
  const Scenario s = load(kDragonfly);
  const DragonflySpec& df = *s.network.dragonfly;
  REQUIRE(s.network.switches.size() == 18);
  for (const SwitchSpec& sw : s.network.switches) {
    CHECK(sw.parent.empty());
    CHECK(sw.hosts == 2);
    CHECK(sw.host_latency == 1000);
  }
  CHECK(s.network.switches[7].name == "g1.c0.r1");  // (1 x 2 + 0) x 3 + 1
  const auto hosts = enumerate_hosts(s.network);
  REQUIRE(hosts.size() == 36);
  // Node i sits at SimGrid's coordinates of id i: group, chassis, router, node.
  for (int i = 0; i < 36; ++i) {
    const int router = i / df.nodes;
    const DragonflyCoords c = router_coords(df, router);
    CHECK(c.group == i / 12);
    CHECK(c.chassis == i % 12 / 6);
    CHECK(c.router == i % 6 / 2);
    CHECK(router_index(df, c) == router);
    CHECK(hosts[static_cast<std::size_t>(i)].switch_index == router);
  }
  CHECK(hosts[15].host == "g1.c0.r1-h01");
  // The truth the inference is scored against: the ranks of each router.
  const Groups groups = true_switch_groups(s);
  REQUIRE(groups.size() == 18);
  CHECK(groups[7] == std::vector<Rank>{14, 15});
  // No tree: every router is a root.
  for (int parent : true_switch_tree(s).switch_parent) CHECK(parent == -1);
}

TEST_CASE("dragonfly: links in SimGrid's order and classes", "[scenario][dragonfly]") {
  const DragonflySpec df = *load(kDragonfly).network.dragonfly;
  const auto links = dragonfly_links(df);
  // green: 6 chassis x 3 router pairs; black: 3 groups x 1 chassis pair x 3 routers; blue: 3.
  REQUIRE(links.size() == 18 + 9 + 3);
  CHECK(links[0] == DragonflyLink{0, 1, DragonflyClass::Green});
  CHECK(links[2] == DragonflyLink{1, 2, DragonflyClass::Green});
  CHECK(links[18] == DragonflyLink{0, 3, DragonflyClass::Black});
  // Group g's link to group h: router h of g's chassis 0 <-> router g of h's chassis 0.
  CHECK(links[27] == DragonflyLink{1, 6, DragonflyClass::Blue});
  CHECK(links[28] == DragonflyLink{2, 12, DragonflyClass::Blue});
  CHECK(links[29] == DragonflyLink{8, 13, DragonflyClass::Blue});
  std::set<std::pair<int, int>> unique;
  for (const DragonflyLink& l : links) {
    CHECK(l.a < l.b);
    unique.insert({l.a, l.b});
  }
  CHECK(unique.size() == links.size());
}

TEST_CASE("dragonfly: SimGrid's minimal routes, hop by hop", "[scenario][dragonfly]") {
  const DragonflySpec df = *load(kDragonfly).network.dragonfly;
  auto r = [&](int g, int c, int x) { return router_index(df, {g, c, x}); };
  // Inside a chassis: one green link. Inside a group: green in the source chassis, then black.
  CHECK(dragonfly_router_path(df, r(0, 1, 0), r(0, 1, 2)) == std::vector{r(0, 1, 0), r(0, 1, 2)});
  CHECK(dragonfly_router_path(df, r(0, 1, 0), r(0, 0, 2)) ==
        std::vector{r(0, 1, 0), r(0, 1, 2), r(0, 0, 2)});
  // To group 2: router 2 of the own chassis, chassis 0, blue, then green and black there.
  CHECK(dragonfly_router_path(df, r(0, 1, 0), r(2, 1, 1)) ==
        std::vector{r(0, 1, 0), r(0, 1, 2), r(0, 0, 2), r(2, 0, 0), r(2, 0, 1), r(2, 1, 1)});
  // Not symmetric: the way back leaves group 2 through its chassis 1.
  CHECK(dragonfly_router_path(df, r(2, 1, 1), r(0, 1, 0)) ==
        std::vector{r(2, 1, 1), r(2, 1, 0), r(2, 0, 0), r(0, 0, 2), r(0, 0, 0), r(0, 1, 0)});
  CHECK(dragonfly_router_path(df, 4, 4) == std::vector{4});
}

TEST_CASE("dragonfly: every route follows links, at most one blue", "[scenario][dragonfly]") {
  const DragonflySpec df = *load(kDragonfly).network.dragonfly;
  std::map<std::pair<int, int>, DragonflyClass> kind;
  for (const DragonflyLink& l : dragonfly_links(df)) kind[{l.a, l.b}] = l.kind;
  for (int a = 0; a < router_count(df); ++a) {
    for (int b = 0; b < router_count(df); ++b) {
      const auto path = dragonfly_router_path(df, a, b);
      INFO(a << " -> " << b);
      CHECK(path.size() <= 6);
      int blue = 0;
      for (std::size_t i = 1; i < path.size(); ++i) {
        const auto it = kind.find({std::min(path[i - 1], path[i]), std::max(path[i - 1], path[i])});
        REQUIRE(it != kind.end());
        blue += it->second == DragonflyClass::Blue;
      }
      CHECK(blue == (router_coords(df, a).group != router_coords(df, b).group ? 1 : 0));
    }
  }
}

TEST_CASE("dragonfly: --set reaches its keys", "[scenario][dragonfly]") {
  const Scenario s =
      load(kDragonfly, {"network.dragonfly.nodes=4", "network.dragonfly.green.count=2",
                        "network.dragonfly.node.latency=200ns"});
  CHECK(s.network.dragonfly->nodes == 4);
  CHECK(s.network.dragonfly->green.count == 2);
  CHECK(s.network.switches[0].host_latency == 200);
  CHECK(s.protocol.processes == 72);
}

TEST_CASE("dragonfly errors: missing sizes and impossible shapes", "[scenario][dragonfly]") {
  auto f = failure_of("name = \"df\"\n[network.dragonfly]\ngroups = 2\nchassis = 1\nnodes = 1\n");
  CHECK(f.line == 2);
  CHECK_THAT(f.what, Contains("[network.dragonfly] has no routers — add e.g. routers = 4"));
  auto g = failure_of(kSmall + "", {"network.dragonfly.groups=3"});
  CHECK_THAT(g.what, StartsWith("--set network.dragonfly.groups=3: groups = 3 but routers = 2"));
  CHECK_THAT(g.what, Contains("lower groups or raise routers"));
  auto h = failure_of(R"(name = "df"
[network.dragonfly]
groups = 2
chassis = 0
routers = 2
nodes = 1
)");
  CHECK(h.line == 4);
  CHECK_THAT(h.what, Contains("network.dragonfly.chassis is out of range (0)"));
}

TEST_CASE("dragonfly errors: link classes", "[scenario][dragonfly]") {
  auto f = failure_of(kSmall + "green = { count = 0 }\n");  // line 7
  CHECK(f.line == 7);
  CHECK_THAT(f.what, Contains("network.dragonfly.green.count is out of range (0)"));
  auto g = failure_of(kSmall + "[network.dragonfly.blue]\nlatncy = \"1us\"\n");
  CHECK(g.line == 8);
  CHECK_THAT(g.what, Contains("unknown key 'latncy' in network.dragonfly.blue — did you mean "
                              "'latency'?"));
  auto h = failure_of(kSmall + "node = { count = 2 }\n");
  CHECK(h.line == 7);
  CHECK_THAT(h.what, Contains("unknown key 'count' in network.dragonfly.node"));
  auto i = failure_of(kSmall + "black = { bandwidth = \"10Gbs\" }\n");
  CHECK(i.line == 7);
  CHECK_THAT(i.what, Contains("network.dragonfly.black.bandwidth = \"10Gbs\" is not a bandwidth"));
  // A class the shape has no links of would be ignored: refused.
  auto j = failure_of(kSmall + "blue = { count = 2 }\n", {"network.dragonfly.groups=1"});
  CHECK(j.line == 7);
  CHECK_THAT(j.what, Contains("network.dragonfly.blue is given but groups = 1: a single group has "
                              "no links between groups — remove it (or raise groups)"));
}

TEST_CASE("dragonfly errors: no other way of describing the network", "[scenario][dragonfly]") {
  auto f = failure_of(kSmall + "[[network.switch]]\nname = \"s\"\nhosts = 1\n");
  CHECK(f.line == 7);
  CHECK_THAT(f.what, Contains("[network.dragonfly] cannot go with [[network.switch]] — a "
                              "Dragonfly's routers are its switches"));
  auto g = failure_of(kSmall + "[network.tree]\nhosts_per_leaf = 2\n");
  CHECK(g.line == 7);
  CHECK_THAT(g.what, Contains("cannot go with [network.tree]"));
  auto h = failure_of(kSmall + "[network.wan]\nrendezvous = \"a\"\n");
  CHECK_THAT(h.what, Contains("cannot go with [network.wan]"));
}

TEST_CASE("runner: a Dragonfly's inferred tree is not scored", "[scenario][dragonfly][runner]") {
  const Scenario s = load(kDragonfly);
  const runner::RunFacts facts = runner::facts_from_scenario(s, "simgrid", {1, true, "", ""}, 0);
  CHECK(facts.tree_not_applicable == "not applicable (Dragonfly)");
  runner::Recorder recorder;
  const nlohmann::json tree = {{"leaves", 2}, {"parent", {2, 2, -1}}};
  recorder.on_report("rendezvous", 1,
                     ReportCmd{"inference", {{"groups", {{0, 1}, {2, 3}}}, {"tree", tree}}});
  const auto result = runner::build_result(facts, recorder);
  CHECK(result.json["inference"]["tree_correct"] == "not applicable (Dragonfly)");
  CHECK(result.json["inference"]["tree_assumptions_hold"] == false);
}
