// Every namespace a daemon runs in takes Reno, whatever the machine's default congestion control
// (launcher/netns_network.hpp, pin_congestion_control), checked on the planned commands without
// root: each kind of emulated network, each daemon namespace set exactly once, none other.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "launcher/netns_network.hpp"
#include "tsunagi/realnet/realnet_backend.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace rn = tsunagi::realnet;
using namespace tsunagi;

namespace {

const std::string kSetting = "net.ipv4.tcp_congestion_control=reno";

rn::NetnsPlan plan_of(const std::string& relative) {
  const scenario::Scenario s =
      scenario::load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + relative, {});
  return rn::plan_netns(s, "tsg1-", {rn::kAutoLatencyScale, 1000, 0});
}

// How many times the plan sets a congestion control in `ns`, and whether every time to Reno.
int congestion_settings(const rn::NetnsPlan& plan, const std::string& ns, bool& all_reno) {
  int count = 0;
  for (const auto& [where, argv] : plan.ns_exec) {
    if (where != ns || argv.empty() || argv[0] != "sysctl") continue;
    for (const std::string& word : argv) {
      if (word.rfind("net.ipv4.tcp_congestion_control=", 0) != 0) continue;
      ++count;
      all_reno = all_reno && word == kSetting;
    }
  }
  return count;
}

std::set<std::string> daemon_namespaces(const rn::NetnsPlan& plan) {
  std::set<std::string> out(plan.host_ns.begin(), plan.host_ns.end());
  out.insert(plan.rendezvous_ns);
  for (const auto& relay : plan.relay_hosts) out.insert(relay.ns);
  return out;
}

}  // namespace

TEST_CASE("every daemon namespace runs Reno, set once", "[netns][tcp]") {
  const std::string scenario =
      GENERATE(as<std::string>{}, "teaching/two-switches.toml", "teaching/dragonfly-16.toml",
               "papers/lmmc-2node.toml", "teaching/long-fat-pair.toml",
               "papers/ssock-11-small.toml", "papers/supersinet-4.toml");
  INFO(scenario);
  const rn::NetnsPlan plan = plan_of(scenario);
  const std::set<std::string> daemons = daemon_namespaces(plan);
  REQUIRE(daemons.size() >= 3);
  for (const std::string& ns : daemons) {
    INFO(ns);
    bool all_reno = true;
    CHECK(congestion_settings(plan, ns, all_reno) == 1);
    CHECK(all_reno);
  }
  // Switches and routers carry no TCP endpoint of the run: no process spent on them.
  for (const std::string& ns : plan.namespaces) {
    if (daemons.count(ns) != 0) continue;
    INFO(ns);
    bool all_reno = true;
    CHECK(congestion_settings(plan, ns, all_reno) == 0);
  }
}

TEST_CASE("pinning twice adds nothing, a host's one sysctl process carries it", "[netns][tcp]") {
  rn::NetnsPlan plan = plan_of("teaching/two-switches.toml");
  const auto before = plan.ns_exec;
  rn::pin_congestion_control(plan);
  CHECK(plan.ns_exec == before);
  // Hosts already had a sysctl command (SYN timing): the setting joins it, no second process.
  for (const std::string& ns : plan.host_ns) {
    int processes = 0;
    for (const auto& [where, argv] : plan.ns_exec)
      if (where == ns && !argv.empty() && argv[0] == "sysctl") ++processes;
    CHECK(processes == 1);
  }
}

TEST_CASE("a plan without daemons' namespaces is left alone", "[netns][tcp]") {
  rn::NetnsPlan plan;
  plan.namespaces = {"tsg1-s0"};
  rn::pin_congestion_control(plan);
  CHECK(plan.ns_exec.empty());
}
