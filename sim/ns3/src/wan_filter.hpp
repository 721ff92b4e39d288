// A cluster router's connection policy, applied to the packets it forwards (issue 6).
//
// ns-3 3.37 (Debian's libns3-dev) ships no netfilter and no NAT, so the filter is an IPv4
// routing protocol placed before the router's static routing in an Ipv4ListRouting: every packet
// the router forwards is offered to it first. A packet it lets through goes on to static routing;
// one it blocks is consumed (dropped) or, with firewall_rejects, answered with a TCP reset sent
// from the router in the name of the blocked destination. Connection attempts are TCP SYNs
// (without ACK) and UDP datagrams not answering one that went out; everything else belongs to an
// established exchange and passes, as with a stateful firewall. docs/ns3.md, "WAN".
#pragma once

#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

#include <ns3/ipv4-routing-protocol.h>
#include <ns3/sequence-number.h>

#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

// Where an address sits, from the address plan (topology.cpp).
struct WanPlace {
  int cluster = -1;      // -1: a router's or the core's own address
  bool gateway = false;  // a gateway host on the router (public address)
};

// The address plan's map from address to place, shared by all routers' filters.
struct WanPlaces {
  std::vector<int> cluster_of_switch;
  WanPlace of(::ns3::Ipv4Address address) const;
};

enum class FilterVerdict { Pass, Drop, Reject };

// The pure decision of router `self` for a connection attempt from `from` to `to`: outbound
// (from inside to another cluster) and inbound (from another cluster to inside) checks.
FilterVerdict policy_verdict(const std::vector<Ns3Cluster>& clusters, int self, WanPlace from,
                             WanPlace to);

class WanFilter : public ::ns3::Ipv4RoutingProtocol {
 public:
  static ::ns3::TypeId GetTypeId();
  void configure(const Ns3Spec& spec, int cluster, const WanPlaces* places);

  ::ns3::Ptr<::ns3::Ipv4Route> RouteOutput(::ns3::Ptr<::ns3::Packet> p,
                                           const ::ns3::Ipv4Header& header,
                                           ::ns3::Ptr<::ns3::NetDevice> oif,
                                           ::ns3::Socket::SocketErrno& sockerr) override;
  bool RouteInput(::ns3::Ptr<const ::ns3::Packet> p, const ::ns3::Ipv4Header& header,
                  ::ns3::Ptr<const ::ns3::NetDevice> idev, UnicastForwardCallback ucb,
                  MulticastForwardCallback mcb, LocalDeliverCallback lcb,
                  ErrorCallback ecb) override;
  void NotifyInterfaceUp(std::uint32_t) override {}
  void NotifyInterfaceDown(std::uint32_t) override {}
  void NotifyAddAddress(std::uint32_t, ::ns3::Ipv4InterfaceAddress) override {}
  void NotifyRemoveAddress(std::uint32_t, ::ns3::Ipv4InterfaceAddress) override {}
  void SetIpv4(::ns3::Ptr<::ns3::Ipv4> ipv4) override { ipv4_ = ipv4; }
  void PrintRoutingTable(::ns3::Ptr<::ns3::OutputStreamWrapper> stream,
                         ::ns3::Time::Unit unit) const override;

  std::uint64_t dropped() const { return dropped_; }
  std::uint64_t rejected() const { return rejected_; }
  std::uint64_t rate_limited() const { return rate_limited_; }
  // Connections accepted across this router over the run (distinct SYN-ACKs crossing it).
  std::uint64_t connections() const { return accepted_.size(); }

 private:
  using Flow = std::tuple<std::uint32_t, std::uint32_t, std::uint16_t, std::uint16_t>;
  bool blocks_tcp(::ns3::Ptr<const ::ns3::Packet> p, const ::ns3::Ipv4Header& header);
  bool blocks_udp(::ns3::Ptr<const ::ns3::Packet> p, const ::ns3::Ipv4Header& header);
  bool limited(WanPlace from, WanPlace to) const;
  bool take_token();
  void send_reset(::ns3::Ipv4Address from, ::ns3::Ipv4Address to, std::uint16_t from_port,
                  std::uint16_t to_port, ::ns3::SequenceNumber32 ack);

  ::ns3::Ptr<::ns3::Ipv4> ipv4_;
  std::vector<Ns3Cluster> clusters_;
  int self_ = -1;
  const WanPlaces* places_ = nullptr;
  std::set<Flow> udp_out_;
  std::set<Flow> accepted_;  // UDP exchanges started from inside: their answers pass
  double tokens_ = 0;
  ::ns3::Time refilled_;
  std::uint64_t dropped_ = 0;
  std::uint64_t rejected_ = 0;
  std::uint64_t rate_limited_ = 0;
};

}  // namespace tsunagi::sim::ns3
