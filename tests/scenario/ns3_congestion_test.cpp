// [ns3] congestion (scenario key): what TCP congestion control the backend's sockets take.
// create_tcp_socket builds each socket's congestion control from its node's TcpL4Protocol
// "SocketType", so the defaults are checked there, on a node made after they were applied.
// Each case is its own ctest process: ns-3's defaults are global.
#include <ns3/core-module.h>
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <catch2/catch.hpp>

#include "ns3_defaults.hpp"

namespace {

namespace n3 = ::ns3;

n3::TypeId socket_type_of_a_new_node() {
  const n3::Ptr<n3::Node> node = n3::CreateObject<n3::Node>();
  n3::InternetStackHelper().Install(node);
  n3::TypeIdValue type;
  node->GetObject<n3::TcpL4Protocol>()->GetAttribute("SocketType", type);
  return type.Get();
}

}  // namespace

TEST_CASE("ns3 congestion: by default every socket takes CUBIC, ns-3's default") {
  tsunagi::sim::ns3::apply_ns3_defaults(1);
  CHECK(socket_type_of_a_new_node() == n3::TcpCubic::GetTypeId());
  n3::Simulator::Destroy();
}

TEST_CASE("ns3 congestion: reno makes every socket take TcpLinuxReno") {
  tsunagi::sim::ns3::apply_ns3_defaults(1);
  tsunagi::sim::ns3::apply_linux_reno();
  CHECK(socket_type_of_a_new_node() == n3::TcpLinuxReno::GetTypeId());
  n3::Simulator::Destroy();
}
