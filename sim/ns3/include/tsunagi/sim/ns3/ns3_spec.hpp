// The C++17 side of the ns-3 backend's boundary: what a run needs, in plain C++17 types.
//
// ns-3 3.37's headers do not compile as C++20 (GCC 12), so the backend's ns-3 translation units
// are C++17 and may include only C++17-clean headers: this one, the core's io.hpp / roles.hpp
// and the runner's observer.hpp, process_table.hpp, process_driver.hpp and run_summary.hpp. The
// scenario struct is C++20, so the C++20 front (run_from_scenario.cpp, behind ns3_backend.hpp)
// turns a Scenario into an Ns3Spec first.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/runner/driver/process_driver.hpp"
#include "tsunagi/runner/driver/run_summary.hpp"

namespace tsunagi::sim::ns3 {

struct Ns3Options {
  // When not empty: write one pcap file per host into this directory (which must exist),
  // named after the host ("s.0.0-h03.pcap"), plus "rendezvous.pcap".
  std::string pcap_dir;
};

struct Ns3Switch {
  std::string name;
  int parent = -1;  // index of the parent switch (listed earlier); -1 for the root
  int hosts = 0;
  double host_bandwidth = 0;  // bytes/s
  TimeNs host_latency = 0;
  double uplink_bandwidth = 0;
  TimeNs uplink_latency = 0;
  int cluster = -1;  // index into Ns3Spec::clusters; -1 without clusters
};

// A cluster of a WAN scenario (scenario::ClusterSpec in plain C++17 types). Its root switch is
// also its router: the router's WAN link joins the core, and its policy filters packets there.
enum class Ns3Policy { Open, Firewall, InboundFirewall, Nat };
// A site's TCP stack (issue 15; scenario::SiteTcp under the run's tcp_profile): the buffers its
// hosts use towards each cluster (by index; its own index = traffic inside the site; 0 = leave
// ns-3's default), RFC 1323 window scaling and SACK. rate_limit (bytes/s, 0 = none) is applied
// as the site's host links' rate (docs/ns3.md).
struct Ns3SiteTcp {
  std::vector<std::uint64_t> send_to;
  std::vector<std::uint64_t> recv_from;
  bool window_scaling = true;
  bool sack = true;
  double rate_limit = 0;
};
struct Ns3Cluster {
  std::string name;
  int root_switch = 0;
  Ns3Policy policy = Ns3Policy::Open;
  std::vector<int> allow;         // cluster indices exempt from the policy
  bool rejects = false;           // blocked SYNs answered with a reset instead of dropped
  double connect_per_second = 0;  // SYN token bucket; 0 = no limit
  int connect_burst = 0;
  double wan_bandwidth = 0;  // bytes/s, router <-> WAN core
  TimeNs wan_latency = 0;
  Ns3SiteTcp tcp;
};

// A relay daemon: an extra host on its cluster's root switch (inside) or on the router with a
// public address (gateway). Labelled by its host name.
struct Ns3Relay {
  std::string host;
  int cluster = 0;
  bool gateway = false;
};

// Switches joined by explicit links and routed by a next-hop table instead of a tree: a
// Dragonfly's routers (issue 13; every switch is then a root). next[s][d] is the switch after s
// on the route to switch d (the diagonal is unused). Empty: the switches form a tree.
struct Ns3SwitchLink {
  int a = 0;  // switch indices
  int b = 0;
  double bandwidth = 0;  // bytes/s (parallel links already summed)
  TimeNs latency = 0;
};
struct Ns3Mesh {
  std::vector<Ns3SwitchLink> links;
  std::vector<std::vector<int>> next;
  // Serial links (issue 14): every link device's transmit queue holds this many bytes, the
  // link's FIFO depth (at least one frame). 0: ns-3's default queue (a Dragonfly's routers).
  std::int64_t fifo_bytes = 0;
  bool empty() const { return links.empty(); }
};

struct Ns3Host {
  std::string name;
  int switch_index = 0;
};

// A process the backend kills at `at` (scenario [[faults]]): label "r<rank>", a relay's host
// name or "rendezvous".

struct Ns3Spec {
  std::vector<Ns3Switch> switches;  // parents before children, one root (a mesh: all roots)
  std::vector<Ns3Host> hosts;       // switch by switch, host by host
  std::vector<int> rank_host;       // host index of each rank (ranks of a host consecutive)
  int procs_per_host = 1;
  std::vector<Ns3Cluster> clusters;  // empty: one LAN, no routers
  std::vector<Ns3Relay> relays;
  int rendezvous_cluster = -1;  // with clusters: the cluster whose root switch has the rendezvous
  TimeNs syn_rto = kNsPerSec;   // TCP's first SYN retransmission (then doubling)
  int syn_retries = 6;
  Ns3Mesh mesh;  // a Dragonfly's router links and routes
  // A shared Ethernet segment (serial networks' medium = "shared", issue 14): switch 0's hosts
  // and the rendezvous on one CSMA channel at switch 0's host rate and latency, no switch.
  bool shared_segment = false;

  // Sites with per-pair RTTs (issue 15): one link per pair of cluster routers (a, b = cluster
  // indices), carrying both access links' and the backbone's latency. Empty: the star core only.
  std::vector<Ns3SwitchLink> site_links;
  std::vector<runner::PlannedKill> faults;  // [[faults]]
  // [ns3] rtt_probe = "route": RTT probes between ranks of two hosts are read off the routes
  // (route_probes.hpp) instead of sent as packets.
  bool route_probes = false;
  // [ns3] congestion = "reno": every TCP socket takes ns-3's TcpLinuxReno instead of TcpCubic.
  bool linux_reno = false;
  std::uint64_t seed = 1;
  ProtocolConfig protocol;  // processes filled in
  Ns3Options options;
};

// Runs the spec to completion (once per OS process; see ns3_backend.hpp).
runner::RunSummary run_ns3_spec(const Ns3Spec& spec, runner::RunObserver& observer,
                                const runner::ProcessFactories& processes);

// The endpoint of rank `rank` (kNoRank: the rendezvous) in a run of `spec`.
Endpoint endpoint_in(const Ns3Spec& spec, Rank rank);

// The endpoint of relay `relay` (index into spec.relays) in a run of `spec`.
Endpoint relay_endpoint_in(const Ns3Spec& spec, int relay);

// TCP port of the process in slot `slot` of its host (0, 1, ...). Its endpoint is
// "<host IPv4 address>:<port>". Bulk throughput probes go to TCP port + kBulkPortOffset, RTT
// probes to UDP port + kProbePortOffset: UDP 14100-15099, which no dissector of Wireshark 4.0
// claims (UDP 7000-7009 is AFS's Rx; tools/wireshark/tsunagi.lua decodes all three).
inline constexpr int kFirstPort = 7000;
inline constexpr int kBulkPortOffset = 10000;
inline constexpr int kProbePortOffset = 7100;

// Receive buffer of a throughput probe's sink (an iperf server with a large window; issue 15).
inline constexpr std::uint64_t kProbeSinkBuffer = std::uint64_t{64} << 20;
inline constexpr int kMaxProcsPerHost = 1000;

}  // namespace tsunagi::sim::ns3
