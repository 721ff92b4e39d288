// WAN clusters on the ns-3 backend: routers filter connection attempts as the cluster policies
// say (compared with scenario::policy_outcome, the ground truth), SYN retransmission follows
// network.syn, routers rate-limit SYNs, gateway relays are reachable in a NAT'd cluster.
#include <catch2/catch.hpp>

#include <map>

#include "ns3_support.hpp"

using namespace tsunagi;

namespace {

scenario::ClusterSpec cluster(const std::string& name, scenario::ClusterPolicy policy) {
  scenario::ClusterSpec c;
  c.name = name;
  c.root_switch = name + "-sw";
  c.policy = policy;
  c.wan_latency = 1 * kNsPerMs;
  return c;
}

// One switch of `hosts` hosts per cluster; clusters in order: open (Open), inbound
// (InboundFirewall), fw (Firewall allowing open), rej (Firewall, rejects), nat (Nat).
scenario::Scenario five_clusters(int hosts = 1) {
  using P = scenario::ClusterPolicy;
  scenario::Scenario s;
  s.name = "wan-five";
  auto fw = cluster("fw", P::Firewall);
  fw.allow = {"open"};
  auto rej = cluster("rej", P::Firewall);
  rej.firewall_rejects = true;
  s.network.clusters = {cluster("open", P::Open), cluster("inbound", P::InboundFirewall), fw, rej,
                        cluster("nat", P::Nat)};
  for (const auto& c : s.network.clusters)
    s.network.switches.push_back(ns3test::make_switch(c.root_switch, "", hosts, 5, 5));
  s.network.rendezvous_cluster = "open";
  s.network.syn = scenario::SynTiming{100 * kNsPerMs, 2};
  s.protocol.overlay.connect_timeout = 10 * kNsPerSec;  // ns-3's SYN give-up comes first
  s.protocol.processes = scenario::process_count(s);
  return s;
}

// Every rank connects to every other rank at once and leaves after `stay`.
ns3test::Script connect_to_all(std::vector<Endpoint> targets, Rank self_rank, TimeNs stay) {
  return [targets, self_rank, stay](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      for (std::size_t j = 0; j < targets.size(); ++j)
        if (static_cast<Rank>(j) != self_rank)
          self.command(ConnectCmd{static_cast<ConnId>(j + 1), targets[j]});
      self.command(ArmTimerCmd{1, stay});
    }
    if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, "done"});
  };
}

// A backend count the run reported, or -1.
double count_of(const ns3test::Observer& observer, const std::string& key) {
  for (const auto& [name, value] : observer.counts)
    if (name == key) return value;
  return -1;
}

scenario::ConnectOutcome seen(const ns3test::Run& run, Rank from, Rank to) {
  const auto conn = static_cast<ConnId>(to + 1);
  for (const auto& [at, c] : run.of<ConnectedInput>(from))
    if (c.conn == conn) return scenario::ConnectOutcome::Accept;
  for (const auto& [at, f] : run.of<ConnectFailedInput>(from))
    if (f.conn == conn)
      return f.reason == ConnectFailure::Refused ? scenario::ConnectOutcome::Refuse
                                                 : scenario::ConnectOutcome::Drop;
  FAIL("rank " << from << " never heard of its connect to " << to);
  return scenario::ConnectOutcome::Accept;
}

}  // namespace

TEST_CASE("ns3 wan: every pair's connect outcome is the policy's, filtered at the routers") {
  const scenario::Scenario s = five_clusters();
  const int n = s.protocol.processes;
  std::vector<Endpoint> targets;
  for (Rank r = 0; r < n; ++r) targets.push_back(sim::ns3::endpoint_of(s, r));
  ns3test::Run run;
  for (Rank r = 0; r < n; ++r) run.scripts[r] = connect_to_all(targets, r, 3 * kNsPerSec);
  run.run(s);

  const std::vector<int> cluster_of = scenario::rank_clusters(s);
  std::map<scenario::ConnectOutcome, int> kinds;
  for (Rank i = 0; i < n; ++i)
    for (Rank j = 0; j < n; ++j) {
      if (i == j) continue;
      const auto expected = scenario::policy_outcome(
          s.network, scenario::Place{cluster_of[static_cast<std::size_t>(i)], false},
          scenario::Place{cluster_of[static_cast<std::size_t>(j)], false});
      INFO(
          s.network.clusters[static_cast<std::size_t>(cluster_of[static_cast<std::size_t>(i)])].name
          << " -> "
          << s.network.clusters[static_cast<std::size_t>(cluster_of[static_cast<std::size_t>(j)])]
                 .name);
      CHECK(seen(run, i, j) == expected);
      ++kinds[expected];
    }
  // The layout exercises all three outcomes.
  CHECK(kinds[scenario::ConnectOutcome::Accept] > 0);
  CHECK(kinds[scenario::ConnectOutcome::Refuse] > 0);
  CHECK(kinds[scenario::ConnectOutcome::Drop] > 0);
  CHECK(run.summary.all_exited_ok);
}

TEST_CASE("ns3 wan: a dropped SYN times out after network.syn's retransmissions") {
  const scenario::Scenario s = five_clusters();
  // open (rank 0) -> inbound (rank 1): dropped at inbound's router. 100 ms, doubling, 2 retries:
  // SYNs at 0, 0.1, 0.3 s, given up 0.4 s after the last (ns-3 waits one more doubled interval).
  ns3test::Run run;
  const Endpoint to = sim::ns3::endpoint_of(s, 1);
  run.scripts[0] = [to](ns3test::Scripted& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) self.command(ConnectCmd{1, to});
    if (std::holds_alternative<ConnectFailedInput>(input.event)) self.command(ExitCmd{true, ""});
  };
  run.run(s);
  const auto failed = run.of<ConnectFailedInput>(0);
  REQUIRE(failed.size() == 1);
  CHECK(failed[0].second.reason == ConnectFailure::TimedOut);
  CHECK(failed[0].first >= 600 * kNsPerMs);
  CHECK(failed[0].first <= 800 * kNsPerMs);
  CHECK(count_of(run.observer, "wan.blocked_dropped") == 3);  // the SYN and its 2 retries
}

TEST_CASE("ns3 wan: the router's token bucket drops SYNs beyond the connect rate") {
  using P = scenario::ClusterPolicy;
  scenario::Scenario s;
  auto src = cluster("src", P::Open);
  src.connect_rate = scenario::ConnectRateLimit{2, 2};  // 2 SYNs at once, then 2 per second
  s.network.clusters = {src, cluster("dst", P::Open)};
  s.network.switches = {ns3test::make_switch("src-sw", "", 1, 5, 5),
                        ns3test::make_switch("dst-sw", "", 4, 5, 5)};
  s.network.rendezvous_cluster = "dst";
  // SYNs at 0, 0.4, 1.2 s: at 0.4 s the bucket holds 0.8 tokens, at 1.2 s 2.4.
  s.network.syn = scenario::SynTiming{400 * kNsPerMs, 3};
  s.protocol.overlay.connect_timeout = 10 * kNsPerSec;
  s.protocol.processes = scenario::process_count(s);
  std::vector<Endpoint> targets;
  for (Rank r = 0; r < s.protocol.processes; ++r) targets.push_back(sim::ns3::endpoint_of(s, r));
  ns3test::Run run;
  for (Rank r = 0; r < s.protocol.processes; ++r)
    run.scripts[r] = connect_to_all(r == 0 ? targets : std::vector<Endpoint>{}, r, 3 * kNsPerSec);
  run.run(s);

  const auto connected = run.of<ConnectedInput>(0);
  REQUIRE(connected.size() == 4);
  int at_once = 0, after_retries = 0;
  for (const auto& [at, c] : connected) {
    if (at < 10 * kNsPerMs) ++at_once;
    if (at > 1200 * kNsPerMs && at < 1300 * kNsPerMs) ++after_retries;
  }
  CHECK(at_once == 2);
  CHECK(after_retries == 2);
  CHECK(count_of(run.observer, "wan.syns_rate_limited") == 4);  // 2 SYNs dropped twice each
}

TEST_CASE("ns3 wan: relays run on their hosts with their site, a NAT gateway is reachable") {
  using P = scenario::ClusterPolicy;
  scenario::Scenario s;
  auto nat = cluster("nat", P::Nat);
  nat.relays = 1;
  nat.relay_at = scenario::RelayPlacement::Gateway;
  auto inb = cluster("inb", P::InboundFirewall);
  inb.relays = 1;
  s.network.clusters = {cluster("open", P::Open), nat, inb};
  for (const auto& c : s.network.clusters)
    s.network.switches.push_back(ns3test::make_switch(c.root_switch, "", 1, 5, 5));
  s.network.rendezvous_cluster = "open";
  s.network.syn = scenario::SynTiming{100 * kNsPerMs, 2};
  s.protocol.overlay.connect_timeout = 10 * kNsPerSec;
  s.protocol.processes = scenario::process_count(s);
  const auto slots = scenario::relay_slots(s);
  REQUIRE(slots.size() == 2);
  const Endpoint gateway = sim::ns3::relay_endpoint_of(s, 0);  // nat-gw0
  const Endpoint inside = sim::ns3::relay_endpoint_of(s, 1);   // inb-relay0
  const Endpoint open_rank = sim::ns3::endpoint_of(s, 0);
  const Endpoint nat_rank = sim::ns3::endpoint_of(s, 1);
  CHECK(gateway.rfind("198.18.", 0) == 0);  // public address on the router

  std::map<std::string, std::vector<Input>> inputs;
  ns3test::Observer observer;
  auto scripted = [&inputs](const std::string& who, ns3test::Script script) {
    return std::make_unique<ns3test::Scripted>(std::move(script), &inputs[who]);
  };
  // Each connecting process tries its targets (conn i+1 for target i), then leaves at 2 s.
  auto tries = [](std::vector<Endpoint> to) {
    return [to](ns3test::Scripted& self, const Input& input) {
      if (std::holds_alternative<StartedInput>(input.event)) {
        for (std::size_t i = 0; i < to.size(); ++i)
          self.command(ConnectCmd{static_cast<ConnId>(i + 1), to[i]});
        self.command(ArmTimerCmd{1, 2 * kNsPerSec});
      }
      if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, ""});
    };
  };
  const auto summary = sim::ns3::run_ns3_with(
      s, observer, {},
      runner::ProcessFactories{
          [&](Rank rank) {
            return scripted("r" + std::to_string(rank),
                            rank == 0 ? tries({gateway, nat_rank, inside}) : tries({}));
          },
          [&] { return scripted("rendezvous", {}); },
          [&](const std::string& host) {
            return scripted(host, host == "inb-relay0" ? tries({open_rank}) : tries({inside}));
          }});
  CHECK(summary.all_exited_ok);

  auto outcome = [&inputs](const std::string& who, ConnId conn) {
    for (const Input& input : inputs[who]) {
      if (const auto* c = std::get_if<ConnectedInput>(&input.event); c && c->conn == conn)
        return std::string("accepted");
      if (const auto* f = std::get_if<ConnectFailedInput>(&input.event); f && f->conn == conn)
        return std::string(f->reason == ConnectFailure::Refused ? "refused" : "dropped");
    }
    return std::string("nothing");
  };
  CHECK(outcome("r0", 1) == "accepted");          // open -> NAT gateway: public address
  CHECK(outcome("r0", 2) == "dropped");           // open -> NAT'd host: private, unreachable
  CHECK(outcome("r0", 3) == "dropped");           // open -> relay behind an inbound firewall
  CHECK(outcome("inb-relay0", 1) == "accepted");  // ... which connects out freely
  CHECK(outcome("nat-gw0", 1) == "dropped");      // gateway -> inside relay of inb: inbound

  auto started = [&inputs](const std::string& who) {
    return std::get<StartedInput>(inputs[who].front().event);
  };
  CHECK(started("r1").site == "nat");
  CHECK(started("nat-gw0").site == "nat");
  CHECK(started("nat-gw0").self == gateway);
  CHECK(started("inb-relay0").site == "inb");
  CHECK(started("inb-relay0").self == inside);
  CHECK(started("inb-relay0").rendezvous == sim::ns3::endpoint_of(s, kNoRank));
  CHECK(started("rendezvous").site == "open");
  bool labelled = false;
  for (const std::string& line : observer.log) labelled |= line.rfind("exit nat-gw0 ", 0) == 0;
  CHECK(labelled);
}

TEST_CASE("ns3 wan: a [[faults]] kill ends the relay at its time and closes its connections") {
  using P = scenario::ClusterPolicy;
  scenario::Scenario s;
  auto a = cluster("a", P::Open);
  a.relays = 1;
  s.network.clusters = {a, cluster("b", P::Open)};
  for (const auto& c : s.network.clusters)
    s.network.switches.push_back(ns3test::make_switch(c.root_switch, "", 1, 5, 5));
  s.network.rendezvous_cluster = "a";
  s.faults = {scenario::FaultSpec{"a-relay0", 500 * kNsPerMs}};
  s.protocol.processes = scenario::process_count(s);
  const Endpoint relay = sim::ns3::relay_endpoint_of(s, 0);

  std::map<std::string, std::vector<Input>> inputs;
  ns3test::Observer observer;
  auto scripted = [&inputs](const std::string& who, ns3test::Script script) {
    return std::make_unique<ns3test::Scripted>(std::move(script), &inputs[who]);
  };
  const auto summary = sim::ns3::run_ns3_with(
      s, observer, {},
      runner::ProcessFactories{[&](Rank rank) {
                                 // rank 1 (cluster b) connects to the relay and leaves when the
                                 // connection closes.
                                 return scripted(
                                     "r" + std::to_string(rank),
                                     [rank, relay](ns3test::Scripted& self, const Input& input) {
                                       if (std::holds_alternative<StartedInput>(input.event)) {
                                         if (rank == 1)
                                           self.command(ConnectCmd{1, relay});
                                         else
                                           self.command(ExitCmd{true, ""});
                                       }
                                       if (std::holds_alternative<ClosedInput>(input.event))
                                         self.command(ExitCmd{true, ""});
                                     });
                               },
                               [&] { return scripted("rendezvous", {}); },
                               [&](const std::string& host) {  // waits until the kill
                                 return scripted(host, [](ns3test::Scripted&, const Input&) {});
                               }});
  CHECK(summary.all_exited_ok);
  TimeNs closed_at = -1;
  for (const Input& input : inputs["r1"])
    if (std::holds_alternative<ClosedInput>(input.event)) closed_at = input.now;
  // The FIN leaves at 0.5 s and crosses 2 WAN links of 1 ms and 2 host links.
  CHECK(closed_at > 502 * kNsPerMs);
  CHECK(closed_at < 503 * kNsPerMs);
  bool killed = false;
  for (const std::string& line : observer.log)
    killed |= line.rfind("exit a-relay0 500000000 killed by the scenario's [[faults]]", 0) == 0;
  CHECK(killed);
}
