// The address plan of the ns-3 backend (docs/ns3.md, "Network" and "WAN scenarios"):
//   switch s owns 10.0.0.0/8's s-th /20 block; its host h sits on the /30 at block + 4h,
//   the switch side .1, the host .2 (so 4,096 switches of up to 1,023 hosts);
//   the uplink of switch s is the /30 at 172.16.0.0 + 4s, child side .1, parent side .2;
//   WAN scenarios: cluster c's WAN link is the /30 at 172.20.0.0 + 4c (router .1, core .2), its
//   gateway hosts sit on the router at 198.18.c.(4i+2) (router side .1), public addresses;
//   a mesh (Dragonfly): link k between switches a < b is the /30 at 100.64.0.0 + 4k (a .1, b .2).
// Shared by the topology builder, the endpoints handed out before a run and the WAN filters.
#pragma once

#include <cstddef>
#include <cstdint>

#include <ns3/ipv4-address.h>

#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3::plan {

inline constexpr std::uint32_t kHostSpace = 0x0A000000;     // 10.0.0.0
inline constexpr std::uint32_t kUplinkSpace = 0xAC100000;   // 172.16.0.0
inline constexpr std::uint32_t kWanSpace = 0xAC140000;      // 172.20.0.0
inline constexpr std::uint32_t kGatewaySpace = 0xC6120000;  // 198.18.0.0
inline constexpr std::uint32_t kMeshSpace = 0x64400000;     // 100.64.0.0/10
inline constexpr std::uint32_t kBlockSize = 4096;           // a /20 per switch
inline constexpr int kMaxSwitches = 4096;
inline constexpr int kMaxHostsPerSwitch = static_cast<int>(kBlockSize / 4) - 1;
inline constexpr std::size_t kMaxMeshLinks = std::size_t{1} << 20;  // /30s in 100.64.0.0/10

inline ::ns3::Ipv4Address block_of(std::size_t s) {
  return ::ns3::Ipv4Address(kHostSpace + static_cast<std::uint32_t>(s) * kBlockSize);
}
inline ::ns3::Ipv4Address host_link(std::size_t s, int h, std::uint32_t side) {
  return ::ns3::Ipv4Address(kHostSpace + static_cast<std::uint32_t>(s) * kBlockSize +
                            4u * static_cast<std::uint32_t>(h) + side);
}
inline ::ns3::Ipv4Address uplink(std::size_t s, std::uint32_t side) {
  return ::ns3::Ipv4Address(kUplinkSpace + 4u * static_cast<std::uint32_t>(s) + side);
}
inline ::ns3::Ipv4Address wan_link(std::size_t c, std::uint32_t side) {
  return ::ns3::Ipv4Address(kWanSpace + 4u * static_cast<std::uint32_t>(c) + side);
}
inline ::ns3::Ipv4Address gateway_link(std::size_t c, int i, std::uint32_t side) {
  return ::ns3::Ipv4Address(kGatewaySpace + 256u * static_cast<std::uint32_t>(c) +
                            4u * static_cast<std::uint32_t>(i) + side);
}

inline ::ns3::Ipv4Address mesh_link(std::size_t k, std::uint32_t side) {
  return ::ns3::Ipv4Address(kMeshSpace + 4u * static_cast<std::uint32_t>(k) + side);
}

// The switch whose extra host is the rendezvous: the root, or the rendezvous cluster's root.
std::size_t rendezvous_switch(const Ns3Spec& spec);

}  // namespace tsunagi::sim::ns3::plan
