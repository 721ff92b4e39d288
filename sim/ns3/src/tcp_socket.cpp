// tcp_socket.hpp: ns-3's TCP with duplicate SYN-ACKs answered and listeners' options kept.
#include "tcp_socket.hpp"

#include <ns3/object-factory.h>
#include <ns3/packet.h>
#include <ns3/rtt-estimator.h>
#include <ns3/tcp-congestion-ops.h>
#include <ns3/tcp-header.h>
#include <ns3/tcp-l4-protocol.h>
#include <ns3/tcp-recovery-ops.h>
#include <ns3/tcp-tx-buffer.h>
#include <ns3/type-id.h>

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

n3::TypeId AnsweringTcpSocket::GetTypeId() {
  static n3::TypeId tid = n3::TypeId("tsunagi::AnsweringTcpSocket")
                              .SetParent<n3::TcpSocketBase>()
                              .SetGroupName("Internet")
                              .AddConstructor<AnsweringTcpSocket>();
  return tid;
}

void AnsweringTcpSocket::DoForwardUp(n3::Ptr<n3::Packet> packet, const n3::Address& from,
                                     const n3::Address& to) {
  n3::TcpHeader header;
  constexpr std::uint8_t kSynAck = n3::TcpHeader::SYN | n3::TcpHeader::ACK;
  if (m_state == n3::TcpSocket::ESTABLISHED && packet->PeekHeader(header) > 0 &&
      (header.GetFlags() & kSynAck) == kSynAck) {
    SendEmptyPacket(n3::TcpHeader::ACK);
    return;
  }
  n3::TcpSocketBase::DoForwardUp(packet, from, to);
}

int AnsweringTcpSocket::Listen() {
  listening_options_ = {m_winScalingEnabled, m_sackEnabled, m_timestampEnabled};
  return n3::TcpSocketBase::Listen();
}

n3::Ptr<n3::TcpSocketBase> AnsweringTcpSocket::Fork() {
  n3::Ptr<AnsweringTcpSocket> connection = n3::CopyObject<AnsweringTcpSocket>(this);
  m_winScalingEnabled = listening_options_.window_scaling;
  m_sackEnabled = listening_options_.sack;
  m_txBuffer->SetSackEnabled(listening_options_.sack);
  m_timestampEnabled = listening_options_.timestamps;
  return connection;
}

n3::Ptr<n3::Socket> create_tcp_socket(const n3::Ptr<n3::Node>& node) {
  const n3::Ptr<n3::TcpL4Protocol> tcp = node->GetObject<n3::TcpL4Protocol>();
  n3::TypeIdValue rtt_type;
  n3::TypeIdValue congestion_type;
  n3::TypeIdValue recovery_type;
  tcp->GetAttribute("RttEstimatorType", rtt_type);
  tcp->GetAttribute("SocketType", congestion_type);
  tcp->GetAttribute("RecoveryType", recovery_type);
  n3::ObjectFactory factory;
  const n3::Ptr<AnsweringTcpSocket> socket = n3::CreateObject<AnsweringTcpSocket>();
  socket->SetNode(node);
  socket->SetTcp(tcp);
  factory.SetTypeId(rtt_type.Get());
  socket->SetRtt(factory.Create<n3::RttEstimator>());
  factory.SetTypeId(congestion_type.Get());
  socket->SetCongestionControlAlgorithm(factory.Create<n3::TcpCongestionOps>());
  factory.SetTypeId(recovery_type.Get());
  socket->SetRecoveryAlgorithm(factory.Create<n3::TcpRecoveryOps>());
  tcp->AddSocket(socket);
  return socket;
}

}  // namespace tsunagi::sim::ns3
