// ns-3 defaults that would distort timings (docs/ns3.md, "ns-3 settings").
#include "ns3_defaults.hpp"

#include <ns3/core-module.h>
#include <ns3/network-module.h>
#include <ns3/tcp-linux-reno.h>

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

void apply_ns3_defaults(std::uint64_t seed) {
  // 1448 B segments fill a 1500 B Ethernet MTU with timestamps on (ns-3's default is 536).
  n3::Config::SetDefault("ns3::TcpSocket::SegmentSize", n3::UintegerValue(1448));
  // 4 MiB socket buffers: a window never limits a LAN flow, and the application hands large
  // messages to the socket in few pieces (ns-3's default 128 KiB needs many refills).
  n3::Config::SetDefault("ns3::TcpSocket::SndBufSize", n3::UintegerValue(4u << 20));
  n3::Config::SetDefault("ns3::TcpSocket::RcvBufSize", n3::UintegerValue(4u << 20));
  // Every segment is acknowledged at once: with ns-3's default (every 2nd segment, else a
  // 200 ms timer) the last segment of an odd-sized message would wait for the timer, which
  // Linux's quick-ack mode avoids on request/response traffic.
  n3::Config::SetDefault("ns3::TcpSocket::DelAckCount", n3::UintegerValue(1));
  // Nagle off (ns-3's default already): frames leave when written, as the core expects.
  n3::Config::SetDefault("ns3::TcpSocket::TcpNoDelay", n3::BooleanValue(true));
  // Linux's minimum retransmission time-out (ns-3 uses 1 s, RFC 6298), so a rare loss under
  // incast costs what it costs on a real cluster.
  n3::Config::SetDefault("ns3::TcpSocketBase::MinRto", n3::TimeValue(n3::MilliSeconds(200)));
  // A segment is retransmitted up to 15 times before the connection is dropped, as Linux does
  // (net.ipv4.tcp_retries2 = 15), not ns-3's 6. With 10,000 ranks the rendezvous's port drops
  // whole bursts, and every flow's RTO fires at the same doubled instants: after 6 losses in a
  // row (25 s) ns-3 dropped a rank's connection that a kernel would have kept.
  n3::Config::SetDefault("ns3::TcpSocket::DataRetries", n3::UintegerValue(15));
  // TIME_WAIT lasts 2 x MaxSegLifetime (ns-3: 2 x 120 s). ns-3 finds a segment's socket by a
  // linear scan over the node's endpoints, and every closed connection keeps its endpoint
  // through TIME_WAIT: after a few thousand throughput probes each segment paid a scan over
  // thousands of dead sockets (half the run time at kaneda-112). 2 x 10 ms still outlasts any
  // segment's stay in these networks.
  n3::Config::SetDefault("ns3::TcpSocketBase::MaxSegLifetime", n3::DoubleValue(0.01));
  // Point-to-point links have no ARP, but routers' Ethernet-less stacks still create an ARP
  // layer: its request jitter (random 0-10 ms) must never add noise to an RTT.
  n3::Config::SetDefault("ns3::ArpL3Protocol::RequestJitter",
                         n3::StringValue("ns3::ConstantRandomVariable[Constant=0.0]"));
  // Every port's transmit queue (ns-3's default is 100 packets, 150 KB): a 1.5 MB port buffer, a
  // common switch figure, counted in bytes as switch buffers are. Incast of full-size segments
  // still overflows it (docs/ns3.md); 10,000 ranks' small control frames at once no longer do.
  n3::Config::SetDefault("ns3::DropTailQueue<Packet>::MaxSize", n3::StringValue(kDeviceQueue));
  // The random run: ns-3's own variables (few are used here) follow the scenario's seed.
  n3::RngSeedManager::SetSeed(1);
  n3::RngSeedManager::SetRun(seed);
}

// ns-3 sends ConnCount SYNs in all, the k-th retransmission ConnTimeout x 2^(k-1) after the one
// before, and gives up one doubled interval after the last: ConnCount = retries + 1 is a kernel's
// tcp_syn_retries (Linux: 1 s, 6 retries -> SYNs at 0, 1, 3, ..., 63 s, failure at 127 s). A SYN a
// router drops thus times out as on the network the scenario describes (scenario.network.syn).
// The core's own connect_timeout (it closes the connection) usually comes first.
void apply_syn_timing(std::int64_t rto_ns, int retries) {
  n3::Config::SetDefault("ns3::TcpSocket::ConnTimeout", n3::TimeValue(n3::NanoSeconds(rto_ns)));
  n3::Config::SetDefault("ns3::TcpSocket::ConnCount",
                         n3::UintegerValue(static_cast<std::uint32_t>(retries + 1)));
}

// Without HyStart's early exit, a lossless path's window grows by slow start until the window
// limit, as Linux's Reno does in realnet's namespaces (docs/ns3.md, "Congestion control").
void apply_linux_reno() {
  n3::Config::SetDefault("ns3::TcpL4Protocol::SocketType",
                         n3::TypeIdValue(n3::TcpLinuxReno::GetTypeId()));
}

void apply_site_queues() {
  n3::Config::SetDefault("ns3::DropTailQueue<Packet>::MaxSize", n3::StringValue(kSiteDeviceQueue));
}

}  // namespace tsunagi::sim::ns3
