// The router filter of a WAN cluster: see wan_filter.hpp. Address plan in topology.cpp.
#include "wan_filter.hpp"

#include "address_plan.hpp"

#include <algorithm>

#include <ns3/ipv4-l3-protocol.h>
#include <ns3/ipv4.h>
#include <ns3/log.h>
#include <ns3/simulator.h>
#include <ns3/tcp-header.h>
#include <ns3/udp-header.h>

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

namespace {

constexpr std::uint8_t kTcp = 6;
constexpr std::uint8_t kUdp = 17;

bool allows(const Ns3Cluster& cluster, int other) {
  return std::find(cluster.allow.begin(), cluster.allow.end(), other) != cluster.allow.end();
}

FilterVerdict blocked_by(const Ns3Cluster& cluster) {
  return cluster.rejects ? FilterVerdict::Reject : FilterVerdict::Drop;
}

}  // namespace

WanPlace WanPlaces::of(n3::Ipv4Address address) const {
  const std::uint32_t a = address.Get();
  if ((a & 0xFF000000u) == plan::kHostSpace) {  // 10/8: a /20 per switch
    const std::uint32_t s = (a - plan::kHostSpace) / plan::kBlockSize;
    if (s < cluster_of_switch.size()) return WanPlace{cluster_of_switch[s], false};
  }
  if ((a & 0xFFFE0000u) == plan::kGatewaySpace)  // 198.18/15: a /24 per cluster
    return WanPlace{static_cast<int>((a >> 8) & 0x1FFu), true};
  return WanPlace{};
}

FilterVerdict policy_verdict(const std::vector<Ns3Cluster>& clusters, int self, WanPlace from,
                             WanPlace to) {
  if (from.cluster < 0 || to.cluster < 0 || from.cluster == to.cluster) return FilterVerdict::Pass;
  const Ns3Cluster& here = clusters.at(static_cast<std::size_t>(self));
  if (from.cluster == self) {  // outbound: only a two-way firewall stops it
    if (here.policy == Ns3Policy::Firewall && !allows(here, to.cluster)) return blocked_by(here);
    return FilterVerdict::Pass;
  }
  if (to.cluster != self) return FilterVerdict::Pass;  // transit (a star has none)
  switch (here.policy) {
    case Ns3Policy::Open:
      return FilterVerdict::Pass;
    case Ns3Policy::Firewall:
    case Ns3Policy::InboundFirewall:
      return allows(here, from.cluster) ? FilterVerdict::Pass : blocked_by(here);
    case Ns3Policy::Nat:
      // Only the gateway has a public address; a private one is unreachable from outside.
      return to.gateway ? FilterVerdict::Pass : FilterVerdict::Drop;
  }
  return FilterVerdict::Pass;
}

n3::TypeId WanFilter::GetTypeId() {
  static n3::TypeId tid = n3::TypeId("tsunagi::WanFilter")
                              .SetParent<n3::Ipv4RoutingProtocol>()
                              .SetGroupName("Internet")
                              .AddConstructor<WanFilter>();
  return tid;
}

void WanFilter::configure(const Ns3Spec& spec, int cluster, const WanPlaces* places) {
  clusters_ = spec.clusters;
  self_ = cluster;
  places_ = places;
  tokens_ = clusters_.at(static_cast<std::size_t>(cluster)).connect_burst;
}

// The router's own packets (resets it sends) are routed by static routing.
n3::Ptr<n3::Ipv4Route> WanFilter::RouteOutput(n3::Ptr<n3::Packet>, const n3::Ipv4Header&,
                                              n3::Ptr<n3::NetDevice>,
                                              n3::Socket::SocketErrno& sockerr) {
  sockerr = n3::Socket::ERROR_NOROUTETOHOST;
  return nullptr;
}

// Returning true consumes the packet: nothing forwards it, so it is dropped.
bool WanFilter::RouteInput(n3::Ptr<const n3::Packet> p, const n3::Ipv4Header& header,
                           n3::Ptr<const n3::NetDevice>, UnicastForwardCallback,
                           MulticastForwardCallback, LocalDeliverCallback, ErrorCallback) {
  if (header.GetProtocol() == kTcp) return blocks_tcp(p, header);
  if (header.GetProtocol() == kUdp) return blocks_udp(p, header);
  return false;
}

bool WanFilter::blocks_tcp(n3::Ptr<const n3::Packet> p, const n3::Ipv4Header& header) {
  n3::TcpHeader tcp;
  p->PeekHeader(tcp);
  const std::uint8_t flags = tcp.GetFlags();
  if ((flags & n3::TcpHeader::SYN) == 0) return false;
  const WanPlace from = places_->of(header.GetSource());
  const WanPlace to = places_->of(header.GetDestination());
  if ((flags & n3::TcpHeader::ACK) != 0) {  // a SYN-ACK: a connection across is accepted
    if (from.cluster != to.cluster)
      accepted_.emplace(header.GetSource().Get(), header.GetDestination().Get(),
                        tcp.GetSourcePort(), tcp.GetDestinationPort());
    return false;
  }
  switch (policy_verdict(clusters_, self_, from, to)) {
    case FilterVerdict::Pass:
      if (from.cluster == to.cluster || !limited(from, to) || take_token()) return false;
      ++rate_limited_;
      return true;
    case FilterVerdict::Drop:
      ++dropped_;
      return true;
    case FilterVerdict::Reject:
      ++rejected_;
      send_reset(header.GetDestination(), header.GetSource(), tcp.GetDestinationPort(),
                 tcp.GetSourcePort(), tcp.GetSequenceNumber() + 1);
      return true;
  }
  return false;
}

// UDP (RTT probes): a datagram answering one that left passes; others meet the policy. A
// rejecting firewall drops UDP too (a kernel would send ICMP unreachable, which ns-3's UDP
// sockets do not report to the prober; a lost sample is what the prober sees either way).
bool WanFilter::blocks_udp(n3::Ptr<const n3::Packet> p, const n3::Ipv4Header& header) {
  n3::UdpHeader udp;
  p->PeekHeader(udp);
  const Flow answer{header.GetDestination().Get(), header.GetSource().Get(),
                    udp.GetDestinationPort(), udp.GetSourcePort()};
  if (udp_out_.count(answer) != 0) return false;
  const WanPlace from = places_->of(header.GetSource());
  const WanPlace to = places_->of(header.GetDestination());
  if (policy_verdict(clusters_, self_, from, to) != FilterVerdict::Pass) {
    ++dropped_;
    return true;
  }
  if (from.cluster != to.cluster)
    udp_out_.emplace(header.GetSource().Get(), header.GetDestination().Get(), udp.GetSourcePort(),
                     udp.GetDestinationPort());
  return false;
}

// The bucket counts SYNs crossing this router between its interior and another cluster. A
// gateway host stands for the router itself (docs/scenario-format.md): its own cluster's bucket
// does not apply to its connects, in or out.
bool WanFilter::limited(WanPlace from, WanPlace to) const {
  if (from.cluster == self_ && from.gateway) return false;
  if (to.cluster == self_ && to.gateway) return false;
  return from.cluster == self_ || to.cluster == self_;
}

// Token bucket of connect_burst SYNs refilled at connect_per_second; no limit when the rate is 0.
bool WanFilter::take_token() {
  const Ns3Cluster& here = clusters_.at(static_cast<std::size_t>(self_));
  if (here.connect_per_second <= 0) return true;
  const n3::Time now = n3::Simulator::Now();
  tokens_ = std::min<double>(here.connect_burst,
                             tokens_ + (now - refilled_).GetSeconds() * here.connect_per_second);
  refilled_ = now;
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

// A RST|ACK as the blocked destination would send it (a REJECT --reject-with tcp-reset rule),
// sent after the current forwarding step so that static routing is not re-entered.
void WanFilter::send_reset(n3::Ipv4Address from, n3::Ipv4Address to, std::uint16_t from_port,
                           std::uint16_t to_port, n3::SequenceNumber32 ack) {
  n3::TcpHeader rst;
  rst.SetSourcePort(from_port);
  rst.SetDestinationPort(to_port);
  rst.SetSequenceNumber(n3::SequenceNumber32(0));
  rst.SetAckNumber(ack);
  rst.SetFlags(n3::TcpHeader::RST | n3::TcpHeader::ACK);
  rst.SetWindowSize(0);
  n3::Ptr<n3::Packet> packet = n3::Create<n3::Packet>();
  packet->AddHeader(rst);
  n3::Ptr<n3::Ipv4> ipv4 = ipv4_;
  n3::Simulator::ScheduleNow(
      [ipv4, packet, from, to] { ipv4->Send(packet, from, to, kTcp, nullptr); });
}

void WanFilter::PrintRoutingTable(n3::Ptr<n3::OutputStreamWrapper> stream, n3::Time::Unit) const {
  *stream->GetStream() << "tsunagi WAN filter of cluster " << clusters_.at(self_).name << "\n";
}

}  // namespace tsunagi::sim::ns3
