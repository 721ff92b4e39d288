// The relay plan end to end in the toy world (paper 001 in miniature): sites behind policies,
// relays bridging them, the direct baseline, undeliverable notices and a relay that dies.
#include <catch2/catch.hpp>

#include <set>

#include "toy_world.hpp"

using namespace tsunagi;
using tsunagi::testing::ToySites;
using tsunagi::testing::ToyWorld;

namespace {

// Ranks 2 per site; sites "a", "b", "c"(, "d"): site s holds ranks 2s, 2s+1.
ToySites sites(int count, std::vector<int> relay_sites) {
  ToySites s;
  for (int site = 0; site < count; ++site) {
    s.names.push_back(std::string(1, static_cast<char>('a' + site)));
    s.site_of_rank.push_back(site);
    s.site_of_rank.push_back(site);
  }
  s.relay_sites = std::move(relay_sites);
  return s;
}

ProtocolConfig relay_config() {
  ProtocolConfig cfg;
  cfg.overlay.plan = PlanKind::Relay;
  cfg.workload.kind = WorkloadKind::Connectivity;
  cfg.workload.connectivity.deadline = 2 * kNsPerSec;
  return cfg;
}

ToyWorld world(const ProtocolConfig& cfg, ToySites s) {
  const auto n = s.site_of_rank.size();
  std::vector<int> host(n);
  for (std::size_t r = 0; r < n; ++r) host[r] = static_cast<int>(r);
  std::vector<int> switch_of = s.site_of_rank;  // copied before `s` is moved
  return ToyWorld(cfg, std::move(switch_of), host, std::move(s));
}

struct Reach {
  std::set<std::pair<Rank, Rank>> reached, unreached, timed_out;
};

Reach reach(ToyWorld& w) {
  Reach out;
  for (const auto& report : w.reports["connectivity"]) {
    const Rank from = report["rank"].get<Rank>();
    for (Rank to : report["reached"].get<std::vector<Rank>>()) out.reached.insert({from, to});
    for (Rank to : report["unreached"].get<std::vector<Rank>>()) out.unreached.insert({from, to});
    for (Rank to : report["timed_out"].get<std::vector<Rank>>()) out.timed_out.insert({from, to});
  }
  return out;
}

nlohmann::json relay_report(ToyWorld& w, const std::string& label) {
  for (const auto& report : w.reports["relay"])
    if (report["relay"] == label) return report;
  FAIL("no report from relay " << label);
  return {};
}

// a and c cannot connect in either direction (SYNs dropped); b talks to both.
std::optional<ConnectFailure> a_c_blocked(int from, int to) {
  if ((from == 0 && to == 2) || (from == 2 && to == 0)) return ConnectFailure::TimedOut;
  return std::nullopt;
}

// No relays: plan all over sites a, b, c where a and c cannot connect; `routing` decides.
ToyWorld without_relays(RoutingKind routing) {
  ProtocolConfig cfg = relay_config();
  cfg.overlay.plan = PlanKind::AllToAll;
  cfg.overlay.routing = routing;
  cfg.overlay.connect_timeout = 20 * kNsPerSec;
  ToySites s = sites(3, {});
  s.blocked = a_c_blocked;
  return world(cfg, s);
}

}  // namespace

TEST_CASE("relay toy: sites that cannot connect are bridged by a third site's relay", "[relay]") {
  ToySites s = sites(3, {0, 1, 2});
  s.blocked = a_c_blocked;
  ToyWorld w = world(relay_config(), s);
  REQUIRE(w.run());
  const Reach r = reach(w);
  CHECK(r.reached.size() == 6u * 5u);
  CHECK(r.unreached.empty());
  const auto a = relay_report(w, "a-relay0");
  CHECK(a["paths"]["c"] == nlohmann::json({"a", "b", "c"}));
  CHECK(a["paths"]["b"] == nlohmann::json({"a", "b"}));
  CHECK(a["links"] == nlohmann::json({"b-relay0"}));
  // Its connect to c is still waiting for the dropped SYN's time-out when the run ends.
  CHECK(a["connecting"] == nlohmann::json({"c-relay0"}));
  // Inside a site, nodes talk directly: nothing of theirs passes a relay.
  CHECK(relay_report(w, "b-relay0")["forwarded"].get<int>() > 0);
  for (const auto& node : w.reports["node"]) CHECK(node["messages_undeliverable"] == 0);
}

TEST_CASE("relay toy: the direct baseline reaches exactly the pairs the policy allows", "[relay]") {
  ToyWorld w = without_relays(RoutingKind::Direct);
  REQUIRE(w.run());
  const Reach r = reach(w);
  std::set<std::pair<Rank, Rank>> forbidden;
  for (Rank x : {0, 1})
    for (Rank y : {4, 5}) {
      forbidden.insert({x, y});
      forbidden.insert({y, x});
    }
  CHECK(r.unreached == forbidden);
  CHECK(r.timed_out.empty());  // said undeliverable at once, not lost
  CHECK(r.reached.size() == 30u - forbidden.size());
}

TEST_CASE("relay toy: an unreachable site's ranks are reported undeliverable", "[relay]") {
  ToySites s = sites(3, {0, 1, 2});
  s.blocked = [](int from, int to) -> std::optional<ConnectFailure> {
    if (from == 2 || to == 2) return ConnectFailure::Refused;
    return std::nullopt;
  };
  ToyWorld w = world(relay_config(), s);
  REQUIRE(w.run());
  const Reach r = reach(w);
  // a and b reach each other; nobody outside c reaches c, and c reaches nobody outside.
  CHECK(r.reached.size() == 4u * 3u + 2u);
  CHECK(r.unreached.size() == 16u);
  CHECK(r.timed_out.empty());
  CHECK(r.unreached.count({0, 4}) == 1);
  CHECK(relay_report(w, "a-relay0")["paths"]["c"].empty());
}

TEST_CASE("relay toy: a relay that dies is routed around and its nodes re-attach", "[relay]") {
  // b has two relays; a and c reach each other only through b.
  ToySites s = sites(3, {0, 1, 1, 2});
  s.blocked = a_c_blocked;
  ProtocolConfig cfg = relay_config();
  ToyWorld w = world(cfg, s);
  w.kill(w.relay_proc(1), 12 * kNsPerMs);  // b-relay0, once its WAN links are up
  w.run();
  const Reach r = reach(w);
  // Every message is accounted for: answered, or reported (undeliverable or timed out).
  CHECK(r.reached.size() + r.unreached.size() == 30u);
  const auto a = relay_report(w, "a-relay0");
  CHECK(a["paths"]["c"] == nlohmann::json({"a", "b", "c"}));
  CHECK(a["links"] == nlohmann::json({"b-relay1"}));
  // The rank that was attached to b-relay0 lost it and moved to b-relay1.
  bool moved = false;
  for (const auto& t : w.traces)
    if (t.trace.kind == "relay_attached" && t.trace.detail["relay"] == "b-relay1") moved = true;
  CHECK(moved);
}

TEST_CASE("relay toy: plan all without relays routes around pairs that cannot connect", "[relay]") {
  // Only the lower rank of a pair connects; when that fails the higher one hears it through the
  // rendezvous (it would wait forever otherwise), and the routing rounds go through site b.
  ToyWorld w = without_relays(RoutingKind::Rounds);
  REQUIRE(w.run());
  const Reach r = reach(w);
  CHECK(r.reached.size() == 30u);
  std::uint64_t relayed = 0;
  for (const auto& node : w.reports["node"])
    relayed += node["messages_relayed"].get<std::uint64_t>();
  CHECK(relayed > 0);  // a <-> c through a rank of b
}
