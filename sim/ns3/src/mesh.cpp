// A Dragonfly's router links and static routes in ns-3 (mesh.hpp).
#include "mesh.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include <ns3/internet-module.h>

#include "address_plan.hpp"
#include "p2p_links.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

namespace {

// How switch `from` reaches its neighbour: the neighbour's address on their link (the
// gateway) and `from`'s interface on it.
struct Port {
  n3::Ipv4Address gateway;
  std::uint32_t interface = 0;
};
using Ports = std::map<std::pair<int, int>, Port>;  // (from, neighbour)

Ports connect(const Ns3Mesh& mesh, const std::vector<n3::Ptr<n3::Node>>& switches,
              const std::shared_ptr<SerialFifos>& fifos) {
  if (mesh.links.size() > plan::kMaxMeshLinks)
    throw std::invalid_argument("ns3: " + std::to_string(mesh.links.size()) +
                                " router links; the address plan holds " +
                                std::to_string(plan::kMaxMeshLinks));
  Ports ports;
  for (std::size_t k = 0; k < mesh.links.size(); ++k) {
    const Ns3SwitchLink& link = mesh.links[k];
    const n3::NetDeviceContainer devices =
        p2p_link(switches.at(static_cast<std::size_t>(link.a)),
                 switches.at(static_cast<std::size_t>(link.b)), link.bandwidth, link.latency);
    if (fifos) limit_serial_queues(devices, fifos);
    const std::uint32_t a_side = add_interface(devices.Get(0), plan::mesh_link(k, 1));
    const std::uint32_t b_side = add_interface(devices.Get(1), plan::mesh_link(k, 2));
    ports[{link.a, link.b}] = Port{plan::mesh_link(k, 2), a_side};
    ports[{link.b, link.a}] = Port{plan::mesh_link(k, 1), b_side};
  }
  return ports;
}

}  // namespace

std::shared_ptr<SerialFifos> build_mesh(const Ns3Mesh& mesh,
                                        const std::vector<n3::Ptr<n3::Node>>& switches) {
  std::shared_ptr<SerialFifos> fifos;
  if (mesh.fifo_bytes > 0) {
    fifos = std::make_shared<SerialFifos>();
    fifos->depth_bytes = serial_queue_bytes(mesh.fifo_bytes);
  }
  const Ports ports = connect(mesh, switches, fifos);
  for (std::size_t s = 0; s < switches.size(); ++s) {
    const n3::Ptr<n3::Ipv4StaticRouting> routes = routing_of(switches[s]);
    for (std::size_t d = 0; d < switches.size(); ++d) {
      if (d == s) continue;
      const int next = mesh.next.at(s).at(d);
      const auto port = ports.find({static_cast<int>(s), next});
      if (port == ports.end())
        throw std::invalid_argument("ns3: switch " + std::to_string(s) + " routes to switch " +
                                    std::to_string(d) + " through switch " + std::to_string(next) +
                                    ", which it has no link to");
      routes->AddNetworkRouteTo(plan::block_of(d), n3::Ipv4Mask("255.255.240.0"),
                                port->second.gateway, port->second.interface);
    }
  }
  return fifos;
}

}  // namespace tsunagi::sim::ns3
