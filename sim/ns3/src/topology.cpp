// Building the routed switch tree. Address plan (docs/ns3.md):
//   switch s owns 10.0.0.0/8's s-th /20 block; its host h sits on the /30 at block + 4h,
//   the switch side .1, the host .2 (so 4,096 switches of up to 1,023 hosts);
//   the uplink of switch s is the /30 at 172.16.0.0 + 4s, child side .1, parent side .2.
// Routes: a host sends everything to its switch; a switch sends each descendant switch's block
// down to the child it lies under and everything else up to its parent.
#include "topology.hpp"

#include <cstdint>
#include <map>
#include <sstream>
#include <stdexcept>

#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>

#include "ns3_defaults.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

namespace {

constexpr std::uint32_t kHostSpace = 0x0A000000;    // 10.0.0.0
constexpr std::uint32_t kUplinkSpace = 0xAC100000;  // 172.16.0.0
constexpr std::uint32_t kBlockSize = 4096;          // a /20 per switch
constexpr int kMaxSwitches = 4096;
constexpr int kMaxHostsPerSwitch = static_cast<int>(kBlockSize / 4) - 1;

n3::Ipv4Address block_of(std::size_t s) {
  return n3::Ipv4Address(kHostSpace + static_cast<std::uint32_t>(s) * kBlockSize);
}
n3::Ipv4Address host_link(std::size_t s, int h, std::uint32_t side) {
  return n3::Ipv4Address(kHostSpace + static_cast<std::uint32_t>(s) * kBlockSize +
                         4u * static_cast<std::uint32_t>(h) + side);
}
n3::Ipv4Address uplink(std::size_t s, std::uint32_t side) {
  return n3::Ipv4Address(kUplinkSpace + 4u * static_cast<std::uint32_t>(s) + side);
}

// Adds `device` as an IPv4 interface of its node with a /30 address; returns its index.
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
    install_stack(all);

    std::vector<int> hosts_on(n, 0);
    for (std::size_t i = 0; i < slots.size(); ++i) {
      const auto s = static_cast<std::size_t>(slots[i].switch_index);
      attach_host(topology_.hosts[i], s, hosts_on[s]++);
    }
    attach_host(topology_.rendezvous, root(), hosts_on[root()]++);
    for (std::size_t s = 0; s < n; ++s)
      if (parent_[s] >= 0) attach_uplink(s);
    add_switch_routes();
    return std::move(topology_);
  }

 private:
  void check_fits() const {
    const auto n = static_cast<int>(spec_.switches.size());
    if (n == 0) throw std::invalid_argument("ns3: the network has no switch");
    if (n > kMaxSwitches)
      throw std::invalid_argument("ns3: " + std::to_string(n) +
                                  " switches, the address plan "
                                  "holds " +
                                  std::to_string(kMaxSwitches));
    for (const auto& sw : spec_.switches)
      if (sw.hosts + (sw.parent < 0 ? 1 : 0) > kMaxHostsPerSwitch)
        throw std::invalid_argument("ns3: switch " + sw.name + " has " + std::to_string(sw.hosts) +
                                    " hosts; the address plan holds " +
                                    std::to_string(kMaxHostsPerSwitch) + " per switch");
  }

  std::size_t root() const {
    for (std::size_t s = 0; s < parent_.size(); ++s)
      if (parent_[s] < 0) return s;
    throw std::invalid_argument("ns3: the switch tree has no root");
  }

  static void install_stack(const n3::NodeContainer& nodes) {
    n3::InternetStackHelper stack;
    stack.SetIpv6StackInstall(false);
    // Static routing only: global routing's route computation is far too slow at 1,000 hosts.
    stack.SetRoutingHelper(n3::Ipv4StaticRoutingHelper());
    stack.Install(nodes);
  }

  n3::NetDeviceContainer link(const n3::Ptr<n3::Node>& a, const n3::Ptr<n3::Node>& b,
                              double bytes_per_s, TimeNs latency) const {
    n3::PointToPointHelper p2p;
    p2p.SetDeviceAttribute(
        "DataRate", n3::DataRateValue(n3::DataRate(static_cast<std::uint64_t>(bytes_per_s * 8))));
    p2p.SetChannelAttribute("Delay", n3::TimeValue(n3::NanoSeconds(latency)));
    return p2p.Install(a, b);
  }

  void attach_host(TopologyHost& host, std::size_t s, int h) {
    const Ns3Switch& sw = spec_.switches[s];
    const n3::NetDeviceContainer devices =
        link(topology_.switches[s], host.node, sw.host_bandwidth, sw.host_latency);
    add_interface(devices.Get(0), host_link(s, h, 1));
    const std::uint32_t index = add_interface(devices.Get(1), host_link(s, h, 2));
    host.address = host_link(s, h, 2);
    routing_of(host.node)->SetDefaultRoute(host_link(s, h, 1), index);
    if (!pcap_dir_.empty()) {
      n3::PointToPointHelper().EnablePcap(pcap_dir_ + "/" + host.name + ".pcap", devices.Get(1),
                                          false, true);
    }
  }

  void attach_uplink(std::size_t s) {
    const Ns3Switch& sw = spec_.switches[s];
    const auto p = static_cast<std::size_t>(parent_[s]);
    const n3::NetDeviceContainer devices =
        link(topology_.switches[s], topology_.switches[p], sw.uplink_bandwidth, sw.uplink_latency);
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

Endpoint endpoint_in(const Ns3Spec& spec, Rank rank) {
  std::size_t s = 0;
  int h = 0;
  int slot = 0;
  if (rank == kNoRank) {  // the extra host after the root switch's own hosts
    while (spec.switches.at(s).parent >= 0) ++s;
    h = spec.switches[s].hosts;
  } else {
    const std::vector<int>& host_of = spec.rank_host;
    const auto r = static_cast<std::size_t>(rank);
    const auto host = static_cast<std::size_t>(host_of.at(r));
    while (slot < static_cast<int>(r) &&
           host_of[r - static_cast<std::size_t>(slot) - 1] == host_of[r])
      ++slot;
    s = static_cast<std::size_t>(spec.hosts.at(host).switch_index);
    for (std::size_t i = 0; i < host; ++i)
      if (spec.hosts[i].switch_index == spec.hosts[host].switch_index) ++h;
  }
  std::ostringstream out;
  host_link(s, h, 2).Print(out);
  out << ':' << kFirstPort + slot;
  return out.str();
}

Topology build_topology(const Ns3Spec& spec) {
  return Builder(spec).build();
}

}  // namespace tsunagi::sim::ns3
