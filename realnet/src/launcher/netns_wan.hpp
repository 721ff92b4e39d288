// Long fat WANs in namespaces (issue 15, paper 004): sites joined by a per-pair RTT matrix
// (`[network.wan] site_rtt`) and each site's TCP stack as per-namespace sysctls.
//   - one router namespace per site (as in the star WAN), and one link per pair of site routers,
//     `p<d>` in router c, a /30 in 172.24.0.0/16, carrying the pair's whole one-way latency
//     (RTT / 2) through the delay line at min(both sites' wan_bandwidth, backbone_bandwidth);
//   - the hosts' and access links inside a site are plain veth pairs: their few microseconds are
//     folded into the pair link, so every path between sites crosses exactly one delay line
//     (each delay-line hop copies every frame through one user-space thread);
//   - every link and bridge of the network runs jumbo frames (MTU 9000): when the delay line
//     copied one frame per segment it moved ~0.8 Gbit/s at 1500, ~3.6 Gbit/s at 9000; with its
//     offloads it moves 64 KB super-frames at either (docs/realnet.md, "Long fat WANs").
#pragma once

#include <string>
#include <vector>

#include "netns_builder.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::realnet {

inline constexpr int kJumboMtu = 9000;

// Throws std::invalid_argument for what the site WAN does not emulate: router policies other
// than open (they filter on the star's single `wan` interface) and Gateway relays.
void check_site_wan(const scenario::Scenario& scenario);

// The pair links of a site_rtt WAN: links, addresses, static ARP and routes of every router.
void plan_site_links(const scenario::Network& network, const std::string& prefix, NetnsPlan& plan,
                     Builder& build);

// `sysctl -w` settings of a host namespace of site `c` for its TCP stack: tcp_window_scaling and
// tcp_sack when off; tcp_rmem / tcp_wmem from its buffers (twice the site's largest buffer of
// the run's tcp_profile, as the kernel doubles SO_RCVBUF / SO_SNDBUF, as default and maximum:
// Linux has no per-peer buffer); in site_rtt WANs also tcp_no_metrics_save=1 (no ssthresh
// carried from one connection to the next, as in the simulators), Reno, and for a site without
// buffers autotuning up to 64 MiB. Empty when the site keeps the kernel's stack.
std::vector<std::string> site_stack_sysctls(const scenario::Network& network, int c);

}  // namespace tsunagi::realnet
