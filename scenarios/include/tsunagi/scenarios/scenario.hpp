// A scenario: the ground-truth network, where processes run, protocol config, workload, seed.
// Backends read the network to build their world; the runner reads it to score inference.
// The protocol core never sees this struct (docs/architecture.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/types.hpp"
#include "tsunagi/scenarios/serial_spec.hpp"
#include "tsunagi/scenarios/site_tcp.hpp"

namespace tsunagi::scenario {

// One switch of a switched cluster. Hosts hang off it directly; the switch hangs off `parent`.
struct SwitchSpec {
  std::string name;
  std::string parent;             // empty for the root switch
  int hosts = 0;                  // hosts attached directly to this switch
  double host_bandwidth = 125e6;  // bytes/s of each host's link to this switch
  TimeNs host_latency = 5 * kNsPerUs;
  double uplink_bandwidth = 125e6;  // bytes/s of this switch's link to its parent
  TimeNs uplink_latency = 5 * kNsPerUs;
  bool operator==(const SwitchSpec&) const = default;
};

// ---- wide-area networks (issue 6, paper 001): clusters behind routers, joined by a WAN core.

// What a cluster's router does to connection attempts crossing it (docs/scenario-format.md):
//   Open            everything passes;
//   Firewall        both directions blocked except to/from the clusters in `allow`;
//   InboundFirewall connects from outside blocked (except from `allow`), outbound free;
//   Nat             hosts have private addresses: no connect from outside can reach them
//                   (a gateway relay has the router's public address), outbound free.
enum class ClusterPolicy { Open, Firewall, InboundFirewall, Nat };

// Where a cluster's relay daemons run: Inside = an extra host on the cluster's root switch
// (behind the router, subject to its policy); Gateway = a host on the router itself with a
// public address (a NAT'd cluster's relay must sit there to be reachable at all).
enum class RelayPlacement { Inside, Gateway };

// Routers that drop bursts of connection attempts: a token bucket of `burst` SYNs refilled at
// `per_second`; a SYN finding the bucket empty is dropped (the sender's kernel retransmits it).
struct ConnectRateLimit {
  double per_second = 0;  // 0 = no limit
  int burst = 0;
  bool operator==(const ConnectRateLimit&) const = default;
};

struct ClusterSpec {
  std::string name;
  std::string root_switch;  // the switch of this cluster joined to its router
  ClusterPolicy policy = ClusterPolicy::Open;
  std::vector<std::string> allow;  // cluster names exempt from the policy
  bool firewall_rejects = false;   // false: blocked SYNs vanish (time-out); true: refused (RST)
  ConnectRateLimit connect_rate;
  double wan_bandwidth = 125e6;  // router <-> WAN core, bytes/s
  TimeNs wan_latency = 1 * kNsPerMs;
  int relays = 0;  // relay daemons of this cluster
  RelayPlacement relay_at = RelayPlacement::Inside;
  SiteTcp tcp;  // the TCP stack of this site's hosts (issue 15)
  bool operator==(const ClusterSpec&) const = default;
};

// The kernel's SYN retransmission (connect time-out): first retry after `syn_rto`, doubling,
// `syn_retries` retries. Linux today: 1 s, 6 -> gives up after 127 s; Linux 2.6.18 in the paper:
// 3 s, 5 -> 189 s.
struct SynTiming {
  TimeNs syn_rto = 1 * kNsPerSec;
  int syn_retries = 6;
};

// ---- Dragonfly networks (issue 13, paper 002): the shape of SimGrid's Dragonfly zone.

// One class of Dragonfly links. `count` parallel links between the same two routers are one
// link of count x bandwidth, as in SimGrid's zone (docs/scenario-format.md).
struct DragonflyLinks {
  double bandwidth = 125e6;  // bytes/s of one link
  TimeNs latency = 5 * kNsPerUs;
  int count = 1;
  bool operator==(const DragonflyLinks&) const = default;
};

// groups x chassis (per group) x routers (per chassis) x nodes (per router). Routers and nodes
// are numbered as in SimGrid's DragonflyZone: group, then chassis, then router, then node.
// The routers are also listed in Network::switches, as roots without parents (one switch group
// per router); scenarios/dragonfly.hpp has the links and routes.
struct DragonflySpec {
  int groups = 1;
  int chassis = 1;
  int routers = 1;
  int nodes = 1;
  DragonflyLinks node;   // node <-> its router (count is always 1)
  DragonflyLinks green;  // routers of one chassis, all to all
  DragonflyLinks black;  // router r of chassis a <-> router r of chassis b, within a group
  DragonflyLinks blue;   // group g <-> group h: router h of g's chassis 0 <-> router g of h's
  bool operator==(const DragonflySpec&) const = default;
};

// [network.factors]: how far the links of a simulated network are from the network it stands
// for (docs/calibration.md). SimGrid and ns-3 apply them to every link they build, loopback
// aside; realnet ignores them: its network is the real one they describe.
struct NetworkFactors {
  double bandwidth = 1;         // share of a link's nominal rate a transfer gets, in (0, 1]
  TimeNs latency_per_link = 0;  // added to every link's one-way latency (after the scale)
  double latency_scale = 1;     // every link's latency x this: realnet's --latency-scale
  bool operator==(const NetworkFactors&) const = default;
};

inline double factored_bandwidth(const NetworkFactors& f, double nominal) {
  return nominal * f.bandwidth;
}

inline TimeNs factored_latency(const NetworkFactors& f, TimeNs nominal) {
  if (f.latency_scale == 1 && f.latency_per_link == 0) return nominal;  // defaults: unchanged
  return static_cast<TimeNs>(static_cast<double>(nominal) * f.latency_scale + 0.5) +
         f.latency_per_link;
}

struct Network {
  // Parents are listed before their children. Without clusters exactly one root; with
  // clusters one root per cluster (its root_switch), each cluster's switches together. A
  // Dragonfly lists its routers here, each a root with its nodes as hosts.
  std::vector<SwitchSpec> switches;
  std::vector<ClusterSpec> clusters;  // empty = one LAN, no routers, no policies
  std::string rendezvous_cluster;     // with clusters: where the rendezvous host sits
  SynTiming syn;
  SiteBackbone backbone;  // per-pair site RTTs (issue 15); empty rtt = the star of wan_latency
  // A Dragonfly instead of a switch tree: `switches` are its routers (no tree, no clusters).
  std::optional<DragonflySpec> dragonfly;
  // Serial links between nodes (issue 14): `switches` are the nodes' link cards (serial.hpp).
  std::optional<SerialSpec> serial;
  // Processes on one host talk over loopback.
  double loopback_bandwidth = 10e9;
  TimeNs loopback_latency = 0;
  NetworkFactors factors;
};

struct Placement {
  int procs_per_host = 1;
  int processes = 0;  // 0 = every host slot; otherwise the first N slots (block order)
};

struct SimgridConfig {
  std::string network_model = "CM02";  // see docs/simgrid.md for why
  double host_speed = 1e9;             // flop/s; compute phases are given in time, not flops
  // "flow": each probe sample is a real ping/pong pair of flows (shares links with everything
  // else). "route": the probe's RTT is read off the route (2 x (latency + bytes / bottleneck)),
  // the uncontended answer of the flow model, and the prober waits K x RTT. Thousands of
  // concurrent probe flows make SimGrid's max-min solver the bottleneck; see docs/simgrid.md.
  std::string rtt_probe = "flow";
  // Messages smaller than this many bytes (SYNs, hellos, control frames) cost their route's
  // latency only and never enter the max-min solver. 0 = off: every message is a flow. At
  // 10,000 processes millions of 64-byte handshakes otherwise make the solver the bottleneck,
  // while their transmission time (0.5 us per hop at 1 Gbit/s) is a tenth of a 5 us link
  // latency (docs/simgrid.md).
  std::uint64_t latency_only_below = 0;
  // Under CM02, messages smaller than this many bytes (handshakes, control frames, small
  // workload messages) are dated by the adapter at the time SimGrid gives a transfer alone on
  // its route (latency + bytes / bottleneck rate) and never enter the max-min solver: their
  // transmission time is kept, their contention with other traffic is not. 0 = off. Other
  // network models leave them to SimGrid (docs/simgrid.md, "Small messages").
  std::uint64_t uncontended_below = 1024;
  // TCP slow start on the flow model: a fresh connection's window starts at ten segments and
  // doubles per round trip, and a stream message waits the round trips its window costs it
  // (as ns-3 and the kernel do). Off by default: SimGrid's flows run at their share from the
  // first byte, which suits interconnects without TCP (Dragonfly, SMPI baselines). docs/simgrid.md.
  bool slow_start = false;
};

struct Ns3Config {
  // "packets": every RTT probe is a UDP echo through the simulated network (queues, contention).
  // "route": a probe between ranks of two hosts is read off the route, 2 x (latency + bytes /
  // slowest link), as SimGrid's rtt_probe = "route", for networks whose inferred groups rest on
  // exact ties (docs/ns3.md, "RTT probes"). Switch trees and Dragonflies only.
  std::string rtt_probe = "packets";
  // TCP's congestion control on every node: "cubic" (ns-3's and Linux's default, with HyStart)
  // or "reno" (ns-3's TcpLinuxReno: what realnet's emulation pins in every namespace). HyStart
  // leaves slow start early on long paths without loss (docs/ns3.md, "Congestion control").
  std::string congestion = "cubic";
};

// A fault injected by the backend: the process labelled `kill` ("r<rank>", "rendezvous" or a
// relay host such as "chiba-relay0") dies at time `at`; its connections close for the peers.
struct FaultSpec {
  std::string kill;
  TimeNs at = 0;
  bool operator==(const FaultSpec&) const = default;
};

struct Scenario {
  std::string name;
  std::string path;  // file it came from (for messages)
  std::string description;
  std::uint64_t seed = 1;
  Network network;
  Placement placement;
  ProtocolConfig protocol;  // protocol.processes and protocol.seed are filled by the loader
  SimgridConfig simgrid;
  Ns3Config ns3;
  std::vector<FaultSpec> faults;  // in file order
};

// ---- ground truth derived from the scenario (used by backends and the runner, never the core)

struct HostSlot {
  std::string host;      // unique host name, e.g. "s3-h07"
  int switch_index = 0;  // index into network.switches
};

// All hosts in order: switch by switch (in file order), then host by host.
std::vector<HostSlot> enumerate_hosts(const Network& network);

// Host index of each rank (block placement: ranks of one host are consecutive).
std::vector<int> rank_to_host(const Scenario& scenario);

// True switch groups: ranks grouped by the switch of their host, each sorted, ordered by their
// smallest rank (the same canonical form the core uses for inferred groups).
Groups true_switch_groups(const Scenario& scenario);

// The switch tree as parent indices into network.switches (-1 for the root), and the switch
// each rank's host hangs off. The runner scores inferred trees against it.
struct SwitchTreeTruth {
  std::vector<int> switch_parent;
  std::vector<int> switch_of_rank;
};
SwitchTreeTruth true_switch_tree(const Scenario& scenario);

// Round-trip time of a probe of `probe_bytes` between a host of switch a and a host of switch
// b along the route, rtt[a][b] = 2 x (summed latency + probe_bytes / slowest link): what
// SimGrid's route probe measures. Switch trees and Dragonflies (routers); nullopt with clusters
// (their WAN routes are the backends' own).
std::optional<std::vector<std::vector<TimeNs>>> switch_route_rtts(const Network& network,
                                                                  std::uint64_t probe_bytes);

// ---- ground truth of WAN scenarios (all trivial without clusters)

// Index into network.clusters of the cluster each switch belongs to (-1 without clusters).
std::vector<int> cluster_of_switches(const Network& network);

// Where a process sits, as far as connection policies care.
struct Place {
  int cluster = -1;      // -1: no clusters in this scenario
  bool gateway = false;  // on the router itself (public address of a NAT'd cluster)
};

// What a connect from `from` to `to` meets, from the policies alone (rate limits are stateful
// and left to the backends): Accept, Refuse (RST or ICMP reject) or Drop (SYN silently lost,
// the connect times out after the SYN retries).
enum class ConnectOutcome { Accept, Refuse, Drop };
ConnectOutcome policy_outcome(const Network& network, Place from, Place to);

// Relay daemons in cluster order, relay by relay. The host of an Inside relay is an extra host
// "<cluster>-relay<i>" on the cluster's root switch; of a Gateway relay "<cluster>-gw<i>" on the
// router. Relays are not ranks and take no placement slot.
struct RelaySlot {
  std::string host;
  int cluster = 0;
  int index = 0;  // within its cluster
  RelayPlacement at = RelayPlacement::Inside;
};
std::vector<RelaySlot> relay_slots(const Scenario& scenario);

// The cluster of each rank (all -1 without clusters).
std::vector<int> rank_clusters(const Scenario& scenario);

// Total process count = min(placement.processes or all slots, hosts * procs_per_host).
int process_count(const Scenario& scenario);

}  // namespace tsunagi::scenario
