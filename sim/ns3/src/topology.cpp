// Building the routed switch tree and, for WAN scenarios, the routers, the WAN core and the
// gateway hosts. Addresses: address_plan.hpp. Routes: a host sends everything to its switch; a
// switch sends each descendant switch's block down to the child it lies under and everything
// else up to its parent (a cluster's root: to the WAN core, which routes each cluster's blocks
// back to its router). A Dragonfly's routers are switches without parents joined by the
// mesh's links and routes (mesh.cpp).
#include "topology.hpp"

#include <cstdint>
#include <map>
#include <sstream>
#include <stdexcept>

#include <ns3/core-module.h>
#include <ns3/csma-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>

#include "address_plan.hpp"
#include "host_ports.hpp"
#include "mesh.hpp"
#include "ns3_defaults.hpp"
#include "p2p_links.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

namespace {

using namespace plan;

// Gives a router its WanFilter, consulted before static routing (wan_filter.hpp).
class WanFilterHelper : public n3::Ipv4RoutingHelper {
 public:
  WanFilterHelper* Copy() const override { return new WanFilterHelper(*this); }
  n3::Ptr<n3::Ipv4RoutingProtocol> Create(n3::Ptr<n3::Node>) const override {
    return n3::CreateObject<WanFilter>();
  }
};

class Builder {
 public:
  explicit Builder(const Ns3Spec& spec) : spec_(spec), pcap_dir_(spec.options.pcap_dir) {}

  Topology build() {
    check_fits();
    const std::size_t n = spec_.switches.size();
    for (std::size_t s = 0; s < n; ++s) topology_.switches.push_back(n3::CreateObject<n3::Node>());
    parent_.assign(n, -1);
    for (std::size_t s = 0; s < n; ++s) parent_[s] = spec_.switches[s].parent;
    n3::NodeContainer all;
    for (const auto& node : topology_.switches) all.Add(node);
    const std::vector<Ns3Host>& slots = spec_.hosts;
    for (const Ns3Host& slot : slots) {
      topology_.hosts.push_back(TopologyHost{slot.name, n3::CreateObject<n3::Node>(), {}});
      all.Add(topology_.hosts.back().node);
    }
    topology_.rendezvous = TopologyHost{"rendezvous", n3::CreateObject<n3::Node>(), {}};
    all.Add(topology_.rendezvous.node);
    for (const Ns3Relay& relay : spec_.relays) {
      topology_.relays.push_back(TopologyHost{relay.host, n3::CreateObject<n3::Node>(), {}});
      all.Add(topology_.relays.back().node);
    }
    install_stack(all);

    if (spec_.shared_segment) {
      attach_segment();
      return std::move(topology_);
    }
    std::vector<int> hosts_on(n, 0);
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const auto s = static_cast<std::size_t>(slots[i].switch_index);
      attach_host(topology_.hosts[i], s, hosts_on[s]++);
    }
    const std::size_t home = rendezvous_switch(spec_);
    attach_host(topology_.rendezvous, home, hosts_on[home]++);
    std::vector<int> gateways_of(spec_.clusters.size(), 0);
    for (std::size_t r = 0; r < spec_.relays.size(); ++r) {
      const auto c = static_cast<std::size_t>(spec_.relays[r].cluster);
      const auto s = static_cast<std::size_t>(spec_.clusters.at(c).root_switch);
      if (spec_.relays[r].gateway)
        attach_gateway(topology_.relays[r], c, gateways_of[c]++);
      else
        attach_host(topology_.relays[r], s, hosts_on[s]++);
    }
    for (std::size_t s = 0; s < n; ++s)
      if (parent_[s] >= 0) attach_uplink(s);
    add_switch_routes();
    if (!spec_.mesh.empty()) topology_.serial_fifos = build_mesh(spec_.mesh, topology_.switches);
    if (!spec_.clusters.empty()) build_wan();
    return std::move(topology_);
  }

 private:
  void check_fits() const {
    const auto n = static_cast<int>(spec_.switches.size());
    if (spec_.clusters.size() > 256)
      throw std::invalid_argument("ns3: more than 256 clusters do not fit the address plan");
    if (n == 0) throw std::invalid_argument("ns3: the network has no switch");
    if (n > kMaxSwitches)
      throw std::invalid_argument("ns3: " + std::to_string(n) +
                                  " switches, the address plan "
                                  "holds " +
                                  std::to_string(kMaxSwitches));
    for (const auto& sw : spec_.switches)
      if (sw.hosts + (sw.parent < 0 ? 1 + static_cast<int>(spec_.relays.size()) : 0) >
          kMaxHostsPerSwitch)
        throw std::invalid_argument("ns3: switch " + sw.name + " has " + std::to_string(sw.hosts) +
                                    " hosts; the address plan holds " +
                                    std::to_string(kMaxHostsPerSwitch) + " per switch");
  }

  // Routers (clusters' root switches) get the policy filter before static routing; every
  // other node static routing only: global routing's route computation is far too slow at
  // 1,000 hosts.
  void install_stack(const n3::NodeContainer& nodes) {
    n3::NodeContainer routers;
    n3::NodeContainer others;
    std::vector<bool> is_router(topology_.switches.size(), false);
    for (const Ns3Cluster& cluster : spec_.clusters)
      is_router.at(static_cast<std::size_t>(cluster.root_switch)) = true;
    for (std::uint32_t i = 0; i < nodes.GetN(); ++i)
      (i < is_router.size() && is_router[i] ? routers : others).Add(nodes.Get(i));
    n3::InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.SetRoutingHelper(n3::Ipv4StaticRoutingHelper());
    stack.Install(others);
    if (routers.GetN() == 0) return;
    n3::Ipv4ListRoutingHelper list;
    list.Add(n3::Ipv4StaticRoutingHelper(), 0);
    list.Add(WanFilterHelper(), 10);  // higher priority: consulted first
    n3::InternetStackHelper router_stack;
    router_stack.SetIpv6StackInstall(false);
    router_stack.SetRoutingHelper(list);
    router_stack.Install(routers);
  }

  // The WAN: a core node, each router joined to it by its cluster's WAN link; routers send
  // everything outside their cluster to the core, the core sends each cluster's blocks to its
  // router. Then each router's filter learns its cluster's policy.
  void build_wan() {
    topology_.core = n3::CreateObject<n3::Node>();
    n3::InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    stack.SetRoutingHelper(n3::Ipv4StaticRoutingHelper());
    stack.Install(topology_.core);
    auto places = std::make_shared<WanPlaces>();
    for (const Ns3Switch& sw : spec_.switches) places->cluster_of_switch.push_back(sw.cluster);
    topology_.places = places;
    const n3::Ptr<n3::Ipv4StaticRouting> core_routes = routing_of(topology_.core);
    for (std::size_t c = 0; c < spec_.clusters.size(); ++c) {
      const Ns3Cluster& cluster = spec_.clusters[c];
      const n3::Ptr<n3::Node> router =
          topology_.switches.at(static_cast<std::size_t>(cluster.root_switch));
      const n3::NetDeviceContainer devices =
          p2p_link(router, topology_.core, cluster.wan_bandwidth, cluster.wan_latency);
      const std::uint32_t up = add_interface(devices.Get(0), wan_link(c, 1));
      const std::uint32_t down = add_interface(devices.Get(1), wan_link(c, 2));
      routing_of(router)->SetDefaultRoute(wan_link(c, 2), up);
      for (std::size_t s = 0; s < spec_.switches.size(); ++s)
        if (spec_.switches[s].cluster == static_cast<int>(c))
          core_routes->AddNetworkRouteTo(block_of(s), n3::Ipv4Mask("255.255.240.0"), wan_link(c, 1),
                                         down);
      core_routes->AddNetworkRouteTo(gateway_link(c, 0, 0), n3::Ipv4Mask("255.255.255.0"),
                                     wan_link(c, 1), down);
      topology_.filters.push_back(filter_of(router));
      topology_.filters.back()->configure(spec_, static_cast<int>(c), places.get());
    }
    if (!spec_.site_links.empty()) build_site_links(spec_, topology_.switches);
  }

  static n3::Ptr<WanFilter> filter_of(const n3::Ptr<n3::Node>& router) {
    auto list =
        n3::DynamicCast<n3::Ipv4ListRouting>(router->GetObject<n3::Ipv4>()->GetRoutingProtocol());
    std::int16_t priority = 0;
    for (std::uint32_t i = 0; i < list->GetNRoutingProtocols(); ++i) {
      auto filter = n3::DynamicCast<WanFilter>(list->GetRoutingProtocol(i, priority));
      if (filter) return filter;
    }
    throw std::logic_error("ns3: a router without its WAN filter");
  }

  // A gateway host hangs off the router itself (outside the cluster's filtered interior).
  void attach_gateway(TopologyHost& host, std::size_t c, int i) {
    attach(host, static_cast<std::size_t>(spec_.clusters[c].root_switch), gateway_link(c, i, 1),
           gateway_link(c, i, 2));
  }

  void attach_host(TopologyHost& host, std::size_t s, int h) {
    attach(host, s, host_link(s, h, 1), host_link(s, h, 2));
  }

  // A host's link to switch s (its host bandwidth and latency), the host's default route.
  void attach(TopologyHost& host, std::size_t s, n3::Ipv4Address switch_side,
              n3::Ipv4Address host_side) {
    const Ns3Switch& sw = spec_.switches[s];
    const n3::NetDeviceContainer devices =
        p2p_link(topology_.switches[s], host.node, sw.host_bandwidth, sw.host_latency);
    add_interface(devices.Get(0), switch_side);
    const std::uint32_t index = add_interface(devices.Get(1), host_side);
    hold_at_host(devices.Get(1));
    host.address = host_side;
    routing_of(host.node)->SetDefaultRoute(switch_side, index);
    if (!pcap_dir_.empty()) {
      n3::PointToPointHelper().EnablePcap(pcap_dir_ + "/" + host.name + ".pcap", devices.Get(1),
                                          false, true);
    }
  }

  // medium = "shared" (issue 14): every host and the rendezvous on one CSMA channel, an Ethernet
  // segment that carries one frame at a time, all in switch 0's block and on-link to each other
  // (no switch, no route). Addresses as if attached to switch 0, so endpoints stay the same.
  void attach_segment() {
    const Ns3Switch& sw = spec_.switches.at(0);
    n3::CsmaHelper csma;
    csma.SetChannelAttribute(
        "DataRate",
        n3::DataRateValue(n3::DataRate(static_cast<std::uint64_t>(sw.host_bandwidth * 8))));
    csma.SetChannelAttribute("Delay", n3::TimeValue(n3::NanoSeconds(sw.host_latency)));
    std::vector<TopologyHost*> members;
    for (TopologyHost& host : topology_.hosts) members.push_back(&host);
    members.push_back(&topology_.rendezvous);
    n3::NodeContainer nodes;
    for (TopologyHost* host : members) nodes.Add(host->node);
    const n3::NetDeviceContainer devices = csma.Install(nodes);
    for (std::size_t i = 0; i < members.size(); ++i) {
      const n3::Ipv4Address address = host_link(0, static_cast<int>(i), 2);
      n3::Ptr<n3::Ipv4> ipv4 = members[i]->node->GetObject<n3::Ipv4>();
      const std::uint32_t index = ipv4->AddInterface(devices.Get(static_cast<std::uint32_t>(i)));
      ipv4->AddAddress(index, n3::Ipv4InterfaceAddress(address, n3::Ipv4Mask("255.255.240.0")));
      ipv4->SetUp(index);
      hold_at_host(devices.Get(static_cast<std::uint32_t>(i)));
      members[i]->address = address;
    }
  }

  void attach_uplink(std::size_t s) {
    const Ns3Switch& sw = spec_.switches[s];
    const auto p = static_cast<std::size_t>(parent_[s]);
    const n3::NetDeviceContainer devices = p2p_link(topology_.switches[s], topology_.switches[p],
                                                    sw.uplink_bandwidth, sw.uplink_latency);
    const std::uint32_t up = add_interface(devices.Get(0), uplink(s, 1));
    down_interface_[s] = add_interface(devices.Get(1), uplink(s, 2));
    routing_of(topology_.switches[s])->SetDefaultRoute(uplink(s, 2), up);
  }

  // For every switch d and every proper ancestor a of d: a routes d's block towards the child
  // of a that d lies under. Parents come before children in the scenario, so walking up from
  // d visits each ancestor once.
  void add_switch_routes() {
    for (std::size_t d = 0; d < parent_.size(); ++d) {
      std::size_t child = d;
      while (parent_[child] >= 0) {
        const auto a = static_cast<std::size_t>(parent_[child]);
        routing_of(topology_.switches[a])
            ->AddNetworkRouteTo(block_of(d), n3::Ipv4Mask("255.255.240.0"), uplink(child, 1),
                                down_interface_.at(child));
        child = a;
      }
    }
  }

  const Ns3Spec& spec_;
  std::string pcap_dir_;
  Topology topology_;
  std::vector<int> parent_;
  std::map<std::size_t, std::uint32_t> down_interface_;  // child switch -> parent's interface
};

}  // namespace

Topology build_topology(const Ns3Spec& spec) {
  return Builder(spec).build();
}

}  // namespace tsunagi::sim::ns3
