// Drops at transmit ports (port_drops.hpp).
#include "port_drops.hpp"

#include <ns3/core-module.h>
#include <ns3/network-module.h>
#include <ns3/traffic-control-module.h>

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

namespace {

void count_drop(PortDrops* drops, std::uint32_t node) {
  if (drops->first_ns < 0) drops->first_ns = n3::Simulator::Now().GetNanoSeconds();
  if (drops->host_nodes.count(node) != 0)
    ++drops->at_hosts;
  else
    ++drops->at_routers;
}

void on_packet_drop(PortDrops* drops, std::uint32_t node, n3::Ptr<const n3::Packet>) {
  count_drop(drops, node);
}

void on_disc_drop(PortDrops* drops, std::uint32_t node, n3::Ptr<const n3::QueueDiscItem>) {
  count_drop(drops, node);
}

// Point-to-point and CSMA devices both keep their transmit queue in the "TxQueue" attribute.
void watch_device_queue(const n3::Ptr<n3::NetDevice>& device, PortDrops* drops,
                        std::uint32_t node) {
  n3::PointerValue queue;
  if (!device->GetAttributeFailSafe("TxQueue", queue)) return;
  if (const auto packets = queue.Get<n3::Queue<n3::Packet>>())
    packets->TraceConnectWithoutContext("Drop",
                                        n3::MakeBoundCallback(&on_packet_drop, drops, node));
}

}  // namespace

void watch_port_drops(const std::shared_ptr<PortDrops>& drops) {
  for (auto it = n3::NodeList::Begin(); it != n3::NodeList::End(); ++it) {
    const n3::Ptr<n3::Node> node = *it;
    const std::uint32_t id = node->GetId();
    const auto layer = node->GetObject<n3::TrafficControlLayer>();
    // Without a queue disc the layer refuses (and traces) what is sent to a stopped device: the
    // usual drop, since a device stops as soon as its queue could not take another frame.
    if (layer)
      layer->TraceConnectWithoutContext("TcDrop",
                                        n3::MakeBoundCallback(&on_packet_drop, drops.get(), id));
    for (std::uint32_t d = 0; d < node->GetNDevices(); ++d) {
      const n3::Ptr<n3::NetDevice> device = node->GetDevice(d);
      watch_device_queue(device, drops.get(), id);
      const n3::Ptr<n3::QueueDisc> disc = layer ? layer->GetRootQueueDiscOnDevice(device) : nullptr;
      if (disc)
        disc->TraceConnectWithoutContext("Drop",
                                         n3::MakeBoundCallback(&on_disc_drop, drops.get(), id));
    }
  }
}

}  // namespace tsunagi::sim::ns3
