// Point-to-point links, /30 interfaces and static routing: what the topology builders share
// (topology.cpp builds trees and WANs, mesh.cpp a Dragonfly's router links).
#pragma once

#include <cstdint>

#include <ns3/ipv4-address.h>
#include <ns3/ipv4-static-routing.h>
#include <ns3/net-device-container.h>
#include <ns3/node.h>
#include <ns3/ptr.h>

#include "tsunagi/model/types.hpp"

namespace tsunagi::sim::ns3 {

// A full-duplex point-to-point link: `bytes_per_s` each way, `latency` one way.
::ns3::NetDeviceContainer p2p_link(const ::ns3::Ptr<::ns3::Node>& a,
                                   const ::ns3::Ptr<::ns3::Node>& b, double bytes_per_s,
                                   TimeNs latency);

// Adds `device` as an IPv4 interface of its node with a /30 address; returns its index.
std::uint32_t add_interface(const ::ns3::Ptr<::ns3::NetDevice>& device, ::ns3::Ipv4Address address);

::ns3::Ptr<::ns3::Ipv4StaticRouting> routing_of(const ::ns3::Ptr<::ns3::Node>& node);

}  // namespace tsunagi::sim::ns3
