// Walking ns-3's forwarding tables hop by hop (route_walk.hpp).
#include "tsunagi/sim/ns3/route_walk.hpp"

#include <map>
#include <stdexcept>
#include <string>

#include <ns3/internet-module.h>
#include <ns3/network-module.h>

#include "topology.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

namespace {

// The node at the other end of the point-to-point link a route leaves through.
n3::Ptr<n3::Node> next_node(const n3::Ptr<n3::Node>& node, n3::Ipv4Address to) {
  n3::Ipv4Header header;
  header.SetDestination(to);
  n3::Socket::SocketErrno error = n3::Socket::ERROR_NOTERROR;
  const n3::Ptr<n3::Ipv4Route> route =
      node->GetObject<n3::Ipv4>()->GetRoutingProtocol()->RouteOutput(n3::Create<n3::Packet>(),
                                                                     header, nullptr, error);
  if (!route) return nullptr;
  const n3::Ptr<n3::NetDevice> out = route->GetOutputDevice();
  const n3::Ptr<n3::Channel> channel = out->GetChannel();
  for (std::size_t i = 0; i < channel->GetNDevices(); ++i)
    if (channel->GetDevice(i) != out) return channel->GetDevice(i)->GetNode();
  return nullptr;
}

std::vector<int> walk(const Topology& topology, const std::map<std::uint32_t, int>& switch_of,
                      int from, int to) {
  const TopologyHost& source = topology.hosts.at(static_cast<std::size_t>(from));
  const TopologyHost& target = topology.hosts.at(static_cast<std::size_t>(to));
  std::vector<int> path;
  n3::Ptr<n3::Node> node = source.node;
  while (node != target.node) {
    node = next_node(node, target.address);
    const auto it = node ? switch_of.find(node->GetId()) : switch_of.end();
    if (node == target.node) break;
    if (it == switch_of.end() || path.size() > switch_of.size())
      throw std::runtime_error("ns3: no route from " + source.name + " to " + target.name);
    path.push_back(it->second);
  }
  return path;
}

}  // namespace

std::vector<std::vector<int>> switch_paths(const Ns3Spec& spec,
                                           const std::vector<std::pair<int, int>>& host_pairs) {
  const Topology topology = build_topology(spec);
  std::map<std::uint32_t, int> switch_of;
  for (std::size_t s = 0; s < topology.switches.size(); ++s)
    switch_of[topology.switches[s]->GetId()] = static_cast<int>(s);
  std::vector<std::vector<int>> paths;
  for (const auto& [from, to] : host_pairs) paths.push_back(walk(topology, switch_of, from, to));
  return paths;
}

}  // namespace tsunagi::sim::ns3
