// Point-to-point links and interfaces (p2p_links.hpp).
#include "p2p_links.hpp"

#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

n3::NetDeviceContainer p2p_link(const n3::Ptr<n3::Node>& a, const n3::Ptr<n3::Node>& b,
                                double bytes_per_s, TimeNs latency) {
  n3::PointToPointHelper p2p;
  p2p.SetDeviceAttribute(
      "DataRate", n3::DataRateValue(n3::DataRate(static_cast<std::uint64_t>(bytes_per_s * 8))));
  p2p.SetChannelAttribute("Delay", n3::TimeValue(n3::NanoSeconds(latency)));
  return p2p.Install(a, b);
}

std::uint32_t add_interface(const n3::Ptr<n3::NetDevice>& device, n3::Ipv4Address address) {
  n3::Ptr<n3::Ipv4> ipv4 = device->GetNode()->GetObject<n3::Ipv4>();
  const std::uint32_t index = ipv4->AddInterface(device);
  ipv4->AddAddress(index, n3::Ipv4InterfaceAddress(address, n3::Ipv4Mask("255.255.255.252")));
  ipv4->SetUp(index);
  return index;
}

n3::Ptr<n3::Ipv4StaticRouting> routing_of(const n3::Ptr<n3::Node>& node) {
  return n3::Ipv4StaticRoutingHelper().GetStaticRouting(node->GetObject<n3::Ipv4>());
}

}  // namespace tsunagi::sim::ns3
