// Policy outcomes of paper 001's layout (scenarios/papers/ssock-11-small.toml), cell by cell
// against the paper's text: the firewalled clusters and kototoi talk to each other; logos
// reaches kototoi but nobody reaches logos; NAT'd imade and kyoto reach out to open kototoi only
// (and to public gateways), and nobody reaches their private hosts.
#include <map>

#include <catch2/catch.hpp>

#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi::scenario;

namespace {

Scenario paper_layout() {
  // The file's plan and workload need the relay role; the policies do not.
  return load_scenario_file(
      std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/papers/ssock-11-small.toml",
      {"protocol.plan=all", "workload.kind=none"});
}

int cluster(const Network& n, const std::string& name) {
  for (std::size_t c = 0; c < n.clusters.size(); ++c)
    if (n.clusters[c].name == name) return static_cast<int>(c);
  FAIL("no cluster " << name);
  return -1;
}

const std::vector<std::string> kOrder = {"chiba", "hiro",   "hongo", "imade", "keio", "kototoi",
                                         "kyoto", "kyushu", "logos", "mirai", "okubo"};

// Row = connecting cluster, column = target (a host inside it), in kOrder. A accept, D drop.
const std::vector<std::string> kInside = {
    // chiba hiro hongo imade keio kototoi kyoto kyushu logos mirai okubo
    "AAADAADADAA",  // chiba   (firewall: the other six and kototoi)
    "AAADAADADAA",  // hiro
    "AAADAADADAA",  // hongo
    "DDDADADDDDD",  // imade   (NAT: out to kototoi only; the firewall refuses it)
    "AAADAADADAA",  // keio
    "AAADAADADAA",  // kototoi (open, inside the firewall's allow lists; logos shuts it out)
    "DDDDDAADDDD",  // kyoto
    "AAADAADADAA",  // kyushu
    "DDDDDADDADD",  // logos   (inbound firewall: logos -> kototoi works)
    "AAADAADADAA",  // mirai
    "AAADAADADAA",  // okubo
};

}  // namespace

TEST_CASE("wan truth: the 11-cluster matrix of paper 001, hosts inside", "[scenario][wan]") {
  const Scenario s = paper_layout();
  for (std::size_t from = 0; from < kOrder.size(); ++from) {
    for (std::size_t to = 0; to < kOrder.size(); ++to) {
      const Place a{cluster(s.network, kOrder[from]), false};
      const Place b{cluster(s.network, kOrder[to]), false};
      const ConnectOutcome expected =
          kInside[from][to] == 'A' ? ConnectOutcome::Accept : ConnectOutcome::Drop;
      INFO(kOrder[from] << " -> " << kOrder[to]);
      CHECK(policy_outcome(s.network, a, b) == expected);
    }
  }
}

TEST_CASE("wan truth: gateway relays of NAT'd clusters are public", "[scenario][wan]") {
  const Scenario s = paper_layout();
  const Network& n = s.network;
  auto outcome = [&](const char* from, const char* to, bool to_gateway) {
    return policy_outcome(n, {cluster(n, from), false}, {cluster(n, to), to_gateway});
  };
  // imade -> kyoto is one hop between the two gateway relays: 2 daemons, as in the paper.
  CHECK(outcome("imade", "kyoto", true) == ConnectOutcome::Accept);
  CHECK(outcome("kyoto", "imade", true) == ConnectOutcome::Accept);
  CHECK(outcome("kototoi", "imade", true) == ConnectOutcome::Accept);
  CHECK(outcome("logos", "kyoto", true) == ConnectOutcome::Accept);
  // The two-way firewall still stops chiba going out to a NAT gateway.
  CHECK(outcome("chiba", "imade", true) == ConnectOutcome::Drop);
}

TEST_CASE("wan truth: relay slots, rendezvous and rank clusters of the layout", "[scenario][wan]") {
  const Scenario s = paper_layout();
  CHECK(s.network.rendezvous_cluster == "kototoi");
  CHECK(s.protocol.processes == 22);
  const auto relays = relay_slots(s);
  REQUIRE(relays.size() == 11);
  CHECK(relays[0].host == "chiba-relay0");
  CHECK(relays[3].host == "imade-gw0");
  CHECK(relays[3].at == RelayPlacement::Gateway);
  CHECK(relays[6].host == "kyoto-gw0");
  const auto clusters = rank_clusters(s);
  CHECK(clusters.front() == 0);
  CHECK(clusters.back() == 10);
  // A refusing firewall turns drops into refusals.
  Network rejecting = s.network;
  rejecting.clusters[static_cast<std::size_t>(cluster(rejecting, "logos"))].firewall_rejects = true;
  CHECK(policy_outcome(rejecting, {cluster(rejecting, "kototoi"), false},
                       {cluster(rejecting, "logos"), false}) == ConnectOutcome::Refuse);
}

TEST_CASE("wan truth: the full file has Table 2's node counts and the small one's layout",
          "[scenario][wan]") {
  const Scenario full = load_scenario_file(
      std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/papers/ssock-11-clusters.toml",
      {"protocol.plan=all", "workload.kind=none"});
  const Scenario small = paper_layout();
  // Paper 001, Table 2 (nodes).
  const std::map<std::string, int> table2 = {
      {"chiba", 58}, {"hiro", 11},   {"hongo", 14}, {"imade", 29}, {"keio", 10}, {"kototoi", 22},
      {"kyoto", 28}, {"kyushu", 10}, {"logos", 4},  {"mirai", 6},  {"okubo", 13}};
  REQUIRE(full.network.clusters.size() == table2.size());
  for (std::size_t c = 0; c < full.network.clusters.size(); ++c) {
    const ClusterSpec& cluster = full.network.clusters[c];
    INFO(cluster.name);
    CHECK(full.network.switches[c].hosts == table2.at(cluster.name));
    // Everything but the sizes is the same in the scaled-down file.
    CHECK(cluster == small.network.clusters[c]);
  }
  CHECK(full.protocol.processes == 205);
}
