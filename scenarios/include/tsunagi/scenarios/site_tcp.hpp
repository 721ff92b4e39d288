// Long fat WANs (issue 15, paper 004): per-site TCP stacks and a per-pair site RTT matrix.
// A WAN's clusters are then "sites"; their routers meet on a backbone where every pair of sites
// has its own latency (paper 004 Table 2 is no tree: no star of per-site latencies fits it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi::scenario {

// Socket buffers a site's hosts use towards one peer site (paper 004 Table 4, "enlarged").
struct PeerBuffers {
  std::string peer;        // a cluster name
  std::uint64_t send = 0;  // SO_SNDBUF bytes
  std::uint64_t recv = 0;  // SO_RCVBUF bytes
  bool operator==(const PeerBuffers&) const = default;
};

// The TCP stack of one site's hosts. Buffers are what the host stack uses when the protocol
// core leaves them alone (protocol.window = "default"); 0 = the backend's own default.
struct SiteTcp {
  std::uint64_t send_buffer = 0;
  std::uint64_t recv_buffer = 0;
  std::vector<PeerBuffers> tuned;  // per peer site, used with [network.wan] tcp_profile = "tuned"
  bool window_scaling = true;      // RFC 1323; off: no window above 64 KB - 1
  bool sack = true;                // RFC 2018
  double rate_limit = 0;  // bytes/s one TCP connection of this site's stack reaches; 0 = none
  bool operator==(const SiteTcp&) const = default;
};

// Which buffers the hosts' stacks hold: each site's default, or its tuned per-peer values.
enum class TcpProfile { Default, Tuned };

// Largest window TCP can advertise without window scaling (16-bit field).
inline constexpr std::uint64_t kUnscaledWindowMax = 65535;

// The backbone between sites: one bandwidth, and per pair of sites the round-trip time between
// hosts of the two sites' root switches as ping would measure it (paper 004 Table 2). Empty
// `rtt`: the WAN is the star of [network.wan] (each cluster's wan_latency).
struct SiteBackbone {
  double bandwidth = 1.25e9;             // bytes/s of each site-to-site path (10 Gbit/s)
  std::vector<std::vector<TimeNs>> rtt;  // [cluster][cluster], 0 on the diagonal
  TcpProfile profile = TcpProfile::Default;
  bool operator==(const SiteBackbone&) const = default;
};

// "64KB", "5.25MB", "1MiB", "4096" -> bytes. KB/MB/GB are binary (1024-based) as the paper's
// window sizes are (5.25 MB = 5376 KB); KiB/MiB/GiB are accepted as the same. Nullopt for
// anything else, negative, or beyond 2^40.
std::optional<std::uint64_t> parse_size(std::string_view text);

}  // namespace tsunagi::scenario

namespace tsunagi::scenario {

struct Network;

// True when the WAN's sites are joined by a per-pair RTT matrix instead of the star.
bool has_site_rtt(const Network& network);

// One-way latency of the backbone path between sites a and b (cluster indices, a != b): half
// their RTT less the hosts' and access links' latencies on both sides (the loader refuses an
// RTT shorter than those). The backends put it on one link per pair of sites.
TimeNs backbone_latency(const Network& network, int a, int b);

// The socket buffers a host of site `from` uses towards site `to` under the network's profile:
// the tuned per-peer entry (tcp_profile = "tuned") or the site's default; `to` = -1 or the
// same site: the default. 0 = the backend's own default.
PeerBuffers stack_buffers(const Network& network, int from, int to);

// The largest window a connection between sites a and b can open given buffers `send` at the
// sender and `recv` at the receiver: the smaller of them, capped at 64 KB - 1 unless both
// sites scale windows (RFC 1323 needs both ends). 0 = unbounded (both buffers 0).
std::uint64_t effective_window(const Network& network, int sender, int receiver, std::uint64_t send,
                               std::uint64_t recv);

}  // namespace tsunagi::scenario
