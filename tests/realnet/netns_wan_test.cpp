// Site WANs in namespaces (launcher/netns_wan.cpp), checked on the planned commands without
// root: one delay line per site pair carrying RTT / 2 of the scenario's matrix at the default
// scale 1, veth inside the sites, jumbo frames, each site's stack as sysctls, refusals.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "launcher/netns_network.hpp"
#include "tsunagi/realnet/realnet_backend.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace rn = tsunagi::realnet;
using namespace tsunagi;

namespace {

scenario::Scenario load(const std::string& relative, const std::vector<std::string>& sets = {}) {
  return scenario::load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + relative,
                                      sets);
}

rn::NetnsPlan plan_of(const scenario::Scenario& s, double scale = rn::kAutoLatencyScale) {
  return rn::plan_netns(s, "tsg1-", {scale, 1000, 0});
}

// The sysctl argv of host namespace `ns` (the one that sets tcp_syn_retries).
std::vector<std::string> host_sysctl(const rn::NetnsPlan& plan, const std::string& ns) {
  for (const auto& [where, argv] : plan.ns_exec)
    if (where == ns && argv.size() > 3 && argv[0] == "sysctl" &&
        argv[3].rfind("net.ipv4.tcp_syn_retries=", 0) == 0)
      return argv;
  return {};
}

bool has(const std::vector<std::string>& list, const std::string& item) {
  for (const auto& x : list)
    if (x == item) return true;
  return false;
}

}  // namespace

TEST_CASE("supersinet-4: one delay line per site pair with RTT / 2 at scale 1", "[netns_wan]") {
  const auto s = load("papers/supersinet-4.toml");
  const rn::NetnsPlan plan = plan_of(s);
  CHECK(plan.latency_scale == 1.0);
  // Table 2: H-T 17, H-Ky 30, H-Ks 42, T-Ky 15, T-Ks 27, Ky-Ks 10 ms (round trip).
  const std::map<std::string, TimeNs> expected{{"r0:r1", 8'500'000},  {"r0:r2", 15'000'000},
                                               {"r0:r3", 21'000'000}, {"r1:r2", 7'500'000},
                                               {"r1:r3", 13'500'000}, {"r2:r3", 5'000'000}};
  std::map<std::string, TimeNs> got;
  for (const rn::DelayLink& link : plan.delay_links)
    got[link.ns_a.substr(5) + ":" + link.ns_b.substr(5)] = link.delay;
  CHECK(got == expected);
  // Hosts, the rendezvous and access links: veth (4 hosts + rendezvous + 4 routers' lan).
  CHECK(plan.veth_links == 9);
  for (const auto& [ns, lines] : plan.ns_batch)
    for (const std::string& line : lines)
      if (line.rfind("link set dev ", 0) == 0 && line.find(" up") != std::string::npos)
        CHECK(has(lines, line.substr(0, line.size() - 3) + " mtu 9000"));
}

TEST_CASE("an explicit latency scale applies to site WANs too", "[netns_wan]") {
  const rn::NetnsPlan plan = plan_of(load("papers/supersinet-4.toml"), 2.0);
  CHECK(plan.latency_scale == 2.0);
  for (const rn::DelayLink& link : plan.delay_links)
    if (link.ns_a == "tsg1-r0" && link.ns_b == "tsg1-r3") CHECK(link.delay == 42'000'000);
  // LANs keep x50 by default.
  CHECK(plan_of(load("teaching/two-switches.toml")).latency_scale == 50.0);
}

TEST_CASE("each site's stack becomes sysctls of its host namespaces", "[netns_wan]") {
  const auto s = load("papers/supersinet-4.toml", {"network.wan.tcp_profile=default"});
  const rn::NetnsPlan plan = plan_of(s);
  const auto hokkaido = host_sysctl(plan, plan.host_ns[0]);
  const auto tokyo = host_sysctl(plan, plan.host_ns[1]);
  const auto kyoto = host_sysctl(plan, plan.host_ns[2]);
  CHECK(has(tokyo, "net.ipv4.tcp_window_scaling=0"));
  CHECK(has(tokyo, "net.ipv4.tcp_sack=0"));
  CHECK_FALSE(has(hokkaido, "net.ipv4.tcp_window_scaling=0"));
  // Kyoto's default: 16 KB send, 24 KB receive, doubled as the kernel doubles SO_*BUF.
  CHECK(has(kyoto, "net.ipv4.tcp_wmem=4096 32768 32768"));
  CHECK(has(kyoto, "net.ipv4.tcp_rmem=4096 49152 49152"));
  CHECK(has(kyoto, "net.ipv4.tcp_congestion_control=reno"));
  // Tuned: the site's largest tuned buffer towards every peer (Kyoto 3 MB).
  const rn::NetnsPlan tuned = plan_of(load("papers/supersinet-4.toml"));
  CHECK(has(host_sysctl(tuned, tuned.host_ns[2]), "net.ipv4.tcp_rmem=4096 6291456 6291456"));
  // A slow stack's rate limit on its host link: Tokyo 100 Mbit/s.
  const auto& tc = plan.tc_batch.at("tsg1-s1");
  CHECK(has(tc, "qdisc replace dev h2 root tbf rate 100000000bit burst 65536 latency 50ms"));
}

TEST_CASE("site WANs refuse what they do not emulate", "[netns_wan]") {
  const auto firewalled =
      load("papers/supersinet-4.toml", {"network.cluster.kyoto.policy=firewall"});
  CHECK_THROWS_WITH(plan_of(firewalled), Catch::Contains("policies other than \"open\""));
}
