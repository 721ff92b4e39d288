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

// Device queues of kSiteDeviceQueue packets (scenarios with per-pair site RTTs).
void apply_site_queues();

// Packets a device's transmit queue holds (per port, per direction) before it drops.
inline constexpr const char* kDeviceQueue = "1000p";
// Sites on long fat links (issue 15): ns-3 has no TCP small queues or pacing, so a whole window
// leaves a host in one burst into its device queue; 10,000 packets hold a 1 Gbit/s x 42 ms
// window (3,600 segments) with room to spare (docs/ns3.md).
inline constexpr const char* kSiteDeviceQueue = "10000p";

}  // namespace tsunagi::sim::ns3
