// The ns-3 backend's TCP socket (sim/ns3/src/tcp_socket.hpp) against ns-3's own, on two nodes
// and one link whose acceptor side loses the connector's last handshake ACK (the second packet
// it receives: SYN, then that ACK). The acceptor retransmits its SYN-ACK after its timeout;
// an ESTABLISHED connector must answer it with an ACK so that the acceptor accepts. Built as
// C++17 beside the backend, which is the standard ns-3's headers are clean under.
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>
#include <catch2/catch.hpp>

#include <optional>

#include "tcp_socket.hpp"

namespace {

namespace n3 = ::ns3;

struct Outcome {
  std::optional<double> connected_s;
  std::optional<double> accepted_s;
  double syn_ack_timeout_s = 0;  // when the acceptor sends its SYN-ACK again
};

// Runs the handshake with the connector's socket made by `make_connector`.
template <typename MakeSocket>
Outcome handshake_with_lost_ack(MakeSocket make_connector) {
  n3::NodeContainer nodes;
  nodes.Create(2);
  n3::PointToPointHelper link;
  link.SetDeviceAttribute("DataRate", n3::StringValue("1Gbps"));
  link.SetChannelAttribute("Delay", n3::StringValue("10us"));
  n3::NetDeviceContainer devices = link.Install(nodes);
  n3::InternetStackHelper().Install(nodes);
  n3::Ipv4AddressHelper addresses("10.1.0.0", "255.255.255.252");
  const n3::Ipv4InterfaceContainer ifaces = addresses.Assign(devices);
  const auto lose = n3::CreateObject<n3::ReceiveListErrorModel>();
  lose->SetList({1});  // the acceptor's second received packet: the final handshake ACK
  devices.Get(1)->SetAttribute("ReceiveErrorModel", n3::PointerValue(lose));

  Outcome out;
  const n3::Ptr<n3::Socket> listener = tsunagi::sim::ns3::create_tcp_socket(nodes.Get(1));
  listener->Bind(n3::InetSocketAddress(n3::Ipv4Address::GetAny(), 7000));
  listener->Listen();
  n3::TimeValue timeout;
  listener->GetAttribute("ConnTimeout", timeout);
  out.syn_ack_timeout_s = timeout.Get().GetSeconds();
  using Request = n3::Callback<bool, n3::Ptr<n3::Socket>, const n3::Address&>;
  using Accepted = n3::Callback<void, n3::Ptr<n3::Socket>, const n3::Address&>;
  using Connected = n3::Callback<void, n3::Ptr<n3::Socket>>;
  listener->SetAcceptCallback(Request([](n3::Ptr<n3::Socket>, const n3::Address&) { return true; }),
                              Accepted([&out](n3::Ptr<n3::Socket>, const n3::Address&) {
                                out.accepted_s = n3::Simulator::Now().GetSeconds();
                              }));
  const n3::Ptr<n3::Socket> connector = make_connector(nodes.Get(0));
  connector->SetConnectCallback(Connected([&out](n3::Ptr<n3::Socket>) {
                                  out.connected_s = n3::Simulator::Now().GetSeconds();
                                }),
                                n3::MakeNullCallback<void, n3::Ptr<n3::Socket>>());
  // Once the simulation runs: nodes (and their traffic control layers) initialise at its start.
  const n3::InetSocketAddress to(ifaces.GetAddress(1), 7000);
  n3::Simulator::Schedule(n3::Seconds(0), [connector, to] { connector->Connect(to); });
  n3::Simulator::Stop(n3::Seconds(10));
  n3::Simulator::Run();
  n3::Simulator::Destroy();
  return out;
}

}  // namespace

TEST_CASE("ns3 tcp socket: a duplicate SYN-ACK is answered, so a lost ACK costs one timeout") {
  const Outcome out = handshake_with_lost_ack(
      [](n3::Ptr<n3::Node> node) { return tsunagi::sim::ns3::create_tcp_socket(node); });
  REQUIRE(out.connected_s);
  CHECK(*out.connected_s < 0.001);
  REQUIRE(out.accepted_s);
  // At the SYN-ACK's retransmission (ns-3's ConnTimeout, 3 s here), plus a round trip.
  CHECK(*out.accepted_s > out.syn_ack_timeout_s);
  CHECK(*out.accepted_s < out.syn_ack_timeout_s + 0.001);
}

TEST_CASE("ns3 tcp socket: ns-3's own connector ignores the duplicate (why the class exists)") {
  const Outcome out = handshake_with_lost_ack([](n3::Ptr<n3::Node> node) {
    return n3::Socket::CreateSocket(node, n3::TcpSocketFactory::GetTypeId());
  });
  REQUIRE(out.connected_s);
  CHECK_FALSE(out.accepted_s);  // the acceptor never completes its handshake
}
