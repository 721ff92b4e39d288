// A process node's own port (host_ports.hpp).
#include "host_ports.hpp"

#include <ns3/network-module.h>
#include <ns3/traffic-control-module.h>

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

void hold_at_host(const n3::Ptr<n3::NetDevice>& device) {
  n3::TrafficControlHelper control;
  control.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", n3::StringValue(kHostHoldQueue));
  control.Install(device);
}

}  // namespace tsunagi::sim::ns3
