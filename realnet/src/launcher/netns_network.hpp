// The scenario's switched network, emulated with the real kernel in network namespaces:
//   - each host is a namespace with one interface eth0 and an address in 10.77.0.0/16;
//   - each switch is a namespace holding a Linux bridge br0; its hosts and its child switches
//     hang off bridge ports;
//   - every link is a veth pair, or, when its scaled latency needs it, a pair of TAP devices
//     joined by tsunagi-delayline (this kernel has no netem: docs/realnet.md);
//   - every link end gets a tbf qdisc at the link's bandwidth;
//   - the rendezvous has a host namespace of its own on the root switch (as in SimGrid);
//   - WAN scenarios (network.clusters): one subnet 10.<100+c>.0.0/16 per cluster, a router
//     namespace per cluster (lan on the cluster's root switch, wan to a core bridge over the
//     cluster's WAN link), the cluster's policy as iptables rules (netns_policy.hpp).
// Namespaces have no route out. All names start with the run's prefix (tsg<pid>-), so
// clean-up only ever touches this run's objects.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tsunagi/model/types.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::realnet {

struct DelayLink {
  std::string ns_a, if_a, ns_b, if_b;
  TimeNs delay = 0;  // one way, each direction
  double rate = 0;   // bytes/s: a serial link, every frame held size / rate (0: none)
};

struct NetnsPlan {
  std::string prefix;
  std::vector<std::string> namespaces;  // every namespace, in creation order
  std::vector<std::string> host_ns;     // per scenario host (enumerate_hosts order)
  std::vector<std::string> host_ip;
  std::string rendezvous_ns;
  std::string rendezvous_ip;
  std::vector<std::string> root_batch;                       // `ip -b -`: namespaces and veth pairs
  std::map<std::string, std::vector<std::string>> ns_batch;  // `ip -n NS -b -` per namespace
  std::map<std::string, std::vector<std::string>> tc_batch;  // `tc -n NS -b -` per namespace
  // Commands run as `ip netns exec NS argv...` after the batches (sysctls, iptables), in
  // order; the cluster of every host ("" without clusters).
  std::vector<std::pair<std::string, std::vector<std::string>>> ns_exec;
  std::vector<std::string> host_site;
  std::string rendezvous_site;
  // Where relay daemons would run (scenario::relay_slots order): Inside relays are extra hosts
  // on their cluster's root switch; Gateway relays run in the router namespace on its public
  // (wan) address. No daemon is started on them yet (docs/realnet.md).
  struct RelayHost {
    std::string label, ns, ip, site;
  };
  std::vector<RelayHost> relay_hosts;
  std::vector<DelayLink> delay_links;  // made by tsunagi-delayline before ns_batch
  int veth_links = 0;
  double latency_scale = 0;  // the one used (resolve_latency_scale)
};

struct NetnsCalibration {
  double latency_scale = 50.0;  // kAutoLatencyScale: 50, or 1 for site_rtt WANs (see below)
  TimeNs min_delay = 1000;
  int mtu = 0;  // every link end and bridge; 0 = the kernel's 1500
};

// The latency scale a run uses: `requested`, or when it is kAutoLatencyScale (no
// --latency-scale given), 50 for LANs and WAN stars (microsecond latencies a user-space delay
// line cannot resolve) and 1 for site_rtt WANs (their RTTs are already milliseconds, and a long
// fat link must keep its real bandwidth-delay product: docs/realnet.md, "Long fat WANs").
double resolve_latency_scale(const scenario::Scenario& scenario, double requested);

NetnsPlan plan_netns(const scenario::Scenario& scenario, const std::string& prefix,
                     const NetnsCalibration& calibration);

// The congestion control of every namespace a daemon runs in (hosts, the rendezvous, relays),
// whatever the machine's default: a new namespace inherits the host's (BBR on some machines,
// whose pacing from an app-limited bandwidth estimate makes each message of a ping-pong cost
// about one round trip more: docs/realnet.md, "TCP in the namespaces"). Reno, as the site WANs
// already had: a namespace may only take one of the host's allowed algorithms, and Reno is
// always allowed (CUBIC, ns-3's default, is not on every machine). plan_netns calls it.
inline constexpr const char* kEmulatedCongestion = "reno";
void pin_congestion_control(NetnsPlan& plan);

// `tsunagi-delayline` arguments for the plan's delay links.
std::vector<std::string> delay_line_args(const NetnsPlan& plan);

// Lines of `ip -b -` that delete every namespace of the plan.
std::vector<std::string> teardown_batch(const NetnsPlan& plan);

}  // namespace tsunagi::realnet
