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

// Packets a device's transmit queue holds (per port, per direction) before it drops.
inline constexpr const char* kDeviceQueue = "1000p";

}  // namespace tsunagi::sim::ns3
