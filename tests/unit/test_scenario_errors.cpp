// Bad scenario files: every error names the file, the exact line and the fix.
// Each document below starts on line 1 right after R"( so line numbers can be read off.
#include <catch2/catch.hpp>

#include "scenario_failure.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi::scenario;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

using Failure = tsunagi::test::ScenarioFailure;

Failure failure_of(const std::string& text) {
  return tsunagi::test::scenario_failure(text, "bad.toml");
}

// Ends with an unterminated switch list so each test appends its own lines from line 9 on.
const std::string kHead = R"(name = "bad"
[network]
[[network.switch]]
name = "core"
[[network.switch]]
name = "edge"
parent = "core"
hosts = 2
)";

}  // namespace

TEST_CASE("errors: unknown key, with the closest valid key", "[scenario][errors]") {
  auto f = failure_of(kHead + "hots = 4\n");  // line 9
  CHECK(f.line == 9);
  CHECK_THAT(f.what, StartsWith("bad.toml:9:1: unknown key 'hots' in [[network.switch]]"));
  CHECK_THAT(f.what, Contains("did you mean 'hosts'?"));
  // A key of another table says where it belongs.
  auto g = failure_of("name = \"x\"\nshortcut_capacity = 2\n" + kHead.substr(13));
  CHECK(g.line == 2);
  CHECK_THAT(g.what, Contains("it belongs in [protocol]"));
}

TEST_CASE("errors: bad unit", "[scenario][errors]") {
  auto f = failure_of(kHead + "uplink_bandwidth = \"1Gbs\"\n");
  CHECK(f.line == 9);
  CHECK_THAT(f.what, Contains("network.switch[1].uplink_bandwidth = \"1Gbs\" is not a bandwidth"));
  CHECK_THAT(f.what, Contains("e.g. \"1Gbps\""));
  auto g = failure_of(kHead + "host_latency = 5\n");
  CHECK(g.line == 9);
  CHECK_THAT(g.what, Contains("has no unit"));
}

TEST_CASE("errors: missing parent", "[scenario][errors]") {
  auto f = failure_of(kHead + "[[network.switch]]\nname = \"leaf\"\nparent = \"edg\"\n");
  CHECK(f.line == 11);
  CHECK_THAT(f.what, Contains("parent 'edg' of switch 'leaf' is not a switch in this network"));
  CHECK_THAT(f.what, Contains("did you mean 'edge'?"));
}

TEST_CASE("errors: parent listed after its child", "[scenario][errors]") {
  auto f = failure_of(R"(name = "bad"
[network]
[[network.switch]]
name = "core"
[[network.switch]]
name = "leaf"
parent = "agg"
[[network.switch]]
name = "agg"
parent = "core"
)");
  CHECK(f.line == 7);
  CHECK_THAT(f.what, Contains("parent 'agg' of switch 'leaf' is listed later (line 8)"));
  CHECK_THAT(f.what, Contains("move the [[network.switch]] named 'agg' above this one"));
}

TEST_CASE("errors: two roots, self-parent (the only possible cycle)", "[scenario][errors]") {
  auto f = failure_of(kHead + "[[network.switch]]\nname = \"other\"\n");  // header on line 9
  CHECK(f.line == 9);
  CHECK_THAT(f.what,
             Contains("switch 'other' has no parent, but 'core' (line 3) is already the root"));
  CHECK_THAT(f.what, Contains("parent = \"core\""));
  auto g = failure_of(kHead + "[[network.switch]]\nname = \"loop\"\nparent = \"loop\"\n");
  CHECK(g.line == 11);
  CHECK_THAT(g.what, Contains("is its own parent"));
}

TEST_CASE("errors: wrong type and negative counts", "[scenario][errors]") {
  auto f = failure_of(R"(name = "bad"
[network]
[[network.switch]]
name = "core"
hosts = "4"
)");
  CHECK(f.line == 5);
  CHECK_THAT(f.what, StartsWith("bad.toml:5:9: network.switch[0].hosts must be an integer, not a "
                                "string (\"4\")"));
  CHECK_THAT(f.what, Contains("(no quotes)"));
  auto g = failure_of(kHead + "[placement]\nprocs_per_host = 0\n");
  CHECK(g.line == 10);
  CHECK_THAT(g.what, Contains("placement.procs_per_host is out of range (0) — use a value of at "
                              "least 1"));
  auto h = failure_of(kHead.substr(0, kHead.size() - 10) + "hosts = -2\n");
  CHECK(h.line == 8);
  CHECK_THAT(h.what, Contains("network.switch[1].hosts cannot be negative (-2)"));
}

TEST_CASE("errors: whole-network mistakes", "[scenario][errors]") {
  CHECK_THAT(failure_of("name = \"x\"\n").what, Contains("there is no [network]"));
  auto both = failure_of(kHead + "[network.tree]\nhosts_per_leaf = 2\n");
  CHECK(both.line == 9);
  CHECK_THAT(both.what, Contains("both given — use one"));
  auto dup = failure_of(kHead + "[[network.switch]]\nname = \"edge\"\nparent = \"core\"\n");
  CHECK(dup.line == 10);
  CHECK_THAT(dup.what, Contains("switch name 'edge' is used twice (first at line 5)"));
  auto no_hosts = failure_of("[network]\n[[network.switch]]\nname = \"a\"\n");
  CHECK_THAT(no_hosts.what, Contains("the network has no hosts"));
  auto tree = failure_of("[network.tree]\nlevels = [ { fanout = 0 } ]\nhosts_per_leaf = 1\n");
  CHECK(tree.line == 2);
  CHECK_THAT(tree.what, Contains("network.tree.levels[0].fanout is out of range (0)"));
}

TEST_CASE("errors: placement and workload against the network", "[scenario][errors]") {
  auto f = failure_of(kHead + "[placement]\nprocesses = 3\n");
  CHECK(f.line == 10);
  CHECK_THAT(f.what, Contains("processes = 3 but the network has only 2 slots"));
  auto g = failure_of(kHead + "[workload.pingpong]\npong = 2\n");
  CHECK(g.line == 10);
  CHECK_THAT(g.what, Contains("pong = 2 but there are 2 processes (ranks 0 to 1)"));
  auto h = failure_of(kHead + "[workload]\nkind = \"sort\"\n");
  CHECK(h.line == 10);
  CHECK_THAT(h.what,
             Contains("use \"none\", \"pingpong\", \"intsort\", \"connectivity\", \"multicast\", "
                      "\"lmmc\" or \"indices\""));
}

TEST_CASE("errors: TOML syntax and unreadable files", "[scenario][errors]") {
  auto f = failure_of("name = \"x\"\nseed = \n");
  CHECK(f.line == 2);
  CHECK_THAT(f.what, StartsWith("bad.toml:2:"));
  CHECK_THAT(f.what, Contains("not valid TOML"));
  CHECK_THROWS_WITH(load_scenario_file("/nonexistent/x.toml"),
                    Contains("/nonexistent/x.toml: cannot open the file"));
}

TEST_CASE("errors: the relay plan needs clusters with relays", "[scenario][errors][relay]") {
  auto f = failure_of(kHead + "[protocol]\nplan = \"relay\"\n");
  CHECK(f.line == 10);
  CHECK_THAT(f.what, Contains("plan = \"relay\" needs sites: add [[network.cluster]]"));
  auto g = failure_of(kHead + "[protocol]\nplan = \"relay\"\nrouting = \"direct\"\n");
  CHECK(g.line == 11);
  CHECK_THAT(g.what, Contains("routing = \"direct\" forwards nothing"));
  auto h = failure_of(R"(name = "bad"
[network.wan]
rendezvous = "a"
[[network.cluster]]
name = "a"
hosts = 2
[protocol]
plan = "relay"
)");
  CHECK(h.line == 8);
  CHECK_THAT(h.what, Contains("no cluster runs a relay — set relays = 1"));
  auto d = failure_of(kHead + "[workload.connectivity]\ndeadline = \"0s\"\n");
  CHECK(d.line == 10);
  CHECK_THAT(d.what, Contains("deadline must be above 0"));
}

TEST_CASE("errors: the ns3 congestion control is cubic or reno", "[scenario][errors][ns3]") {
  auto f = failure_of(kHead + "[ns3]\ncongestion = \"vegas\"\n");
  CHECK(f.line == 10);
  CHECK_THAT(f.what, StartsWith("bad.toml:10:"));
  CHECK_THAT(f.what, Contains("unknown congestion control \"vegas\""));
  CHECK_THAT(f.what, Contains("use \"cubic\" (ns-3's default) or \"reno\""));
  CHECK(load_scenario_string(kHead + "[ns3]\ncongestion = \"reno\"\n", "ok.toml").ns3.congestion ==
        "reno");
  CHECK(load_scenario_string(kHead, "ok.toml").ns3.congestion == "cubic");
}
