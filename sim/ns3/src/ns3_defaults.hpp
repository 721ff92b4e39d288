// ns-3 settings this backend changes from ns-3's defaults, and why (docs/ns3.md lists them).
#pragma once

#include <cstdint>

namespace tsunagi::sim::ns3 {

// Sets the TCP, ARP and queue defaults and the random run number. Call before building
// anything: ns-3 reads defaults when objects are created.
void apply_ns3_defaults(std::uint64_t seed);

// The scenario's SYN retransmission (network.syn): first retry after `rto`, then doubling (ns-3's
// exponential connection back-off), `retries` retries before the connect fails.
void apply_syn_timing(std::int64_t rto_ns, int retries);

// [ns3] congestion = "reno": ns-3's TcpLinuxReno for every TCP socket instead of TcpCubic.
void apply_linux_reno();

// Device queues of kSiteDeviceQueue bytes (scenarios with per-pair site RTTs).
void apply_site_queues();

// What a device's transmit queue holds (per port, per direction) before it drops: 1.5 MB, counted
// in bytes as a switch's packet buffer is, so 1,000 full 1,502 B frames (1,448 B segments with
// TCP/IP and PPP headers) fill it, as they did when it counted 1,000 packets, but a burst of small
// control frames no longer overflows it after 1,000 of them (docs/ns3.md, "ns-3 settings").
inline constexpr const char* kDeviceQueue = "1502000B";
// The frames a serial link's sending node holds while its FIFO is full (serial_fifos.cpp).
inline constexpr const char* kSerialHoldQueue = "1000p";
// Sites on long fat links (issue 15): ns-3 has no TCP small queues or pacing, so a whole window
// leaves a host in one burst into its device queue; 15 MB (10,000 full frames) hold a
// 1 Gbit/s x 42 ms window (3,600 segments) with room to spare (docs/ns3.md).
inline constexpr const char* kSiteDeviceQueue = "15020000B";

}  // namespace tsunagi::sim::ns3
