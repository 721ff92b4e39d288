// WAN scenarios: [[network.cluster]], [network.wan] and [[faults]] — good files, overrides, and
// every error naming its line and the fix. Documents start on line 1 right after R"(.
#include <catch2/catch.hpp>

#include "scenario_failure.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;
using Catch::Matchers::Contains;

namespace {

// Three clusters: a firewalled one, an open one with a tree, a NAT'd one with a gateway relay.
// Lines 1-23; tests append from line 24 on.
const std::string kWan = R"(name = "wan"
[network.wan]
rendezvous = "b"
syn_rto = "3s"
syn_retries = 5
[[network.cluster]]
name = "a"
hosts = 2
policy = "firewall"
allow = ["b"]
firewall_action = "reject"
connect_rate = { per_second = 10, burst = 8 }
wan_latency = "4ms"
relays = 1
[[network.cluster]]
name = "b"
tree = { levels = [{ fanout = 2 }], hosts_per_leaf = 3 }
wan_bandwidth = "100Mbps"
[[network.cluster]]
name = "c"
hosts = 1
policy = "nat"
relays = 2
)";

using Failure = tsunagi::test::ScenarioFailure;

Failure failure_of(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return tsunagi::test::scenario_failure(text, "wan.toml", overrides);
}

}  // namespace

TEST_CASE("wan: clusters become switches, policies, rates and relays", "[scenario][wan]") {
  const Scenario s = load_scenario_string(kWan + "relay_at = \"gateway\"\n", "wan.toml");
  const Network& n = s.network;
  REQUIRE(n.clusters.size() == 3);
  CHECK(n.rendezvous_cluster == "b");
  CHECK(n.syn.syn_rto == 3 * kNsPerSec);
  CHECK(n.syn.syn_retries == 5);
  const ClusterSpec& a = n.clusters[0];
  CHECK(a.root_switch == "a");
  CHECK(a.policy == ClusterPolicy::Firewall);
  CHECK(a.allow == std::vector<std::string>{"b"});
  CHECK(a.firewall_rejects);
  CHECK(a.connect_rate.per_second == 10);
  CHECK(a.connect_rate.burst == 8);
  CHECK(a.wan_latency == 4 * kNsPerMs);
  CHECK(n.clusters[1].wan_bandwidth == Approx(100e6 / 8));
  CHECK(n.clusters[1].policy == ClusterPolicy::Open);
  CHECK(n.clusters[2].relay_at == RelayPlacement::Gateway);
  // Switches: "a"; the tree "b", "b.0", "b.1"; "c" — cluster by cluster.
  std::vector<std::string> names;
  for (const SwitchSpec& sw : n.switches) names.push_back(sw.name + "<" + sw.parent);
  CHECK(names == std::vector<std::string>{"a<", "b<", "b.0<b", "b.1<b", "c<"});
  CHECK(s.protocol.processes == 2 + 6 + 1);
  CHECK(rank_clusters(s) == std::vector<int>{0, 0, 1, 1, 1, 1, 1, 1, 2});
  const auto relays = relay_slots(s);
  REQUIRE(relays.size() == 3);
  CHECK(relays[0].host == "a-relay0");
  CHECK(relays[2].host == "c-gw1");
}

TEST_CASE("wan: --set reaches the new keys, clusters by name", "[scenario][wan][overrides]") {
  const Scenario s = load_scenario_string(
      kWan, "wan.toml",
      {"network.cluster.a.policy=inbound_firewall", "network.wan.syn_rto=1s",
       "network.cluster.c.wan_latency=9ms", "network.cluster.a.connect_rate.burst=2"});
  CHECK(s.network.clusters[0].policy == ClusterPolicy::InboundFirewall);
  CHECK(s.network.syn.syn_rto == kNsPerSec);
  CHECK(s.network.clusters[2].wan_latency == 9 * kNsPerMs);
  CHECK(s.network.clusters[0].connect_rate.burst == 2);
  auto f = failure_of(kWan, {"network.cluster.a.polcy=open"});
  CHECK_THAT(f.what, Contains("did you mean 'policy'"));
}

TEST_CASE("wan: faults name a process of the scenario", "[scenario][wan][faults]") {
  const Scenario s = load_scenario_string(
      kWan +
          "[[faults]]\nkill = \"a-relay0\"\nat = \"2s\"\n[[faults]]\nkill = \"r3\"\nat = \"1ms\"\n",
      "wan.toml");
  REQUIRE(s.faults.size() == 2);
  CHECK(s.faults[0] == FaultSpec{"a-relay0", 2 * kNsPerSec});
  CHECK(s.faults[1] == FaultSpec{"r3", kNsPerMs});
  auto f = failure_of(kWan + "[[faults]]\nkill = \"r9\"\nat = \"1s\"\n");
  CHECK(f.line == 25);
  CHECK_THAT(f.what,
             Contains("no process is labelled 'r9' — use r0..r8 or a relay such as a-relay0"));
  auto g = failure_of(kWan + "[[faults]]\nkill = \"r1\"\n");
  CHECK(g.line == 24);
  CHECK_THAT(g.what, Contains("needs kill and at"));
}

TEST_CASE("wan: errors name the line and the fix", "[scenario][wan][errors]") {
  const std::string d = "[[network.cluster]]\nname = \"d\"\nhosts = 1\n";  // lines 24-26
  auto unknown_allow = failure_of(kWan + d + "policy = \"firewall\"\nallow = [\"zz\"]\n");
  CHECK(unknown_allow.line == 28);
  CHECK_THAT(unknown_allow.what, Contains("allow names 'zz', which is not a [[network.cluster]]"));
  auto self_allow = failure_of(kWan + d + "policy = \"firewall\"\nallow = [\"d\"]\n");
  CHECK_THAT(self_allow.what, Contains("allows itself"));
  auto open_allow = failure_of(kWan + "allow = [\"a\"]\n");
  CHECK(open_allow.line == 24);
  CHECK_THAT(open_allow.what, Contains("allow only applies to policy = \"firewall\""));
  auto nat_action = failure_of(kWan + "firewall_action = \"reject\"\n");
  CHECK_THAT(nat_action.what, Contains("firewall_action only applies to a firewall"));
  auto bad_policy =
      failure_of(kWan + "[[network.cluster]]\nname = \"d\"\nhosts = 1\npolicy = \"nats\"\n");
  CHECK(bad_policy.line == 27);
  CHECK_THAT(bad_policy.what,
             Contains("use \"open\", \"firewall\", \"inbound_firewall\" or \"nat\""));
  auto bad_at = failure_of(kWan + "relay_at = \"router\"\n");
  CHECK_THAT(bad_at.what, Contains("use \"inside\" or \"gateway\""));
  auto twice = failure_of(kWan + "[[network.cluster]]\nname = \"a\"\nhosts = 1\n");
  CHECK(twice.line == 25);
  CHECK_THAT(twice.what, Contains("used twice (first at line 6)"));
  auto no_hosts = failure_of(kWan + "[[network.cluster]]\nname = \"d\"\n");
  CHECK_THAT(no_hosts.what, Contains("has no hosts — add hosts = N"));
  auto rate = failure_of(kWan + "connect_rate = { per_second = 5 }\n");
  CHECK(rate.line == 24);
  CHECK_THAT(rate.what, Contains("needs both keys"));
}

TEST_CASE("wan: the rendezvous cluster must be given and exist", "[scenario][wan][errors]") {
  auto missing = failure_of("name = \"x\"\n[[network.cluster]]\nname = \"a\"\nhosts = 1\n");
  CHECK_THAT(missing.what, Contains("add [network.wan] rendezvous = \"a\""));
  auto unknown = failure_of(kWan, {"network.wan.rendezvous=zz"});
  CHECK_THAT(unknown.what, Contains("rendezvous = \"zz\" is not a [[network.cluster]]"));
  auto mixed = failure_of(kWan + "[[network.switch]]\nname = \"s\"\nhosts = 1\n");
  CHECK_THAT(mixed.what, Contains("cannot go with [[network.switch]]"));
  auto lonely = failure_of(
      "name = \"x\"\n[network.wan]\nrendezvous = \"a\"\n[[network.switch]]\nname = \"s\"\nhosts = "
      "1\n");
  CHECK(lonely.line == 2);
  CHECK_THAT(lonely.what, Contains("[network.wan] without [[network.cluster]]"));
}
