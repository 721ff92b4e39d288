// TCP windows on ns-3 sockets (issue 15): the buffers the core gives a connection.
#include <ns3/boolean.h>
#include <ns3/socket.h>
#include <ns3/uinteger.h>

#include "process_host.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

void ProcessHost::size_buffers(const SocketPtr& socket, std::uint64_t send, std::uint64_t recv) {
  if (send > 0)
    socket->SetAttribute("SndBufSize", n3::UintegerValue(static_cast<std::uint32_t>(send)));
  if (recv > 0)
    socket->SetAttribute("RcvBufSize", n3::UintegerValue(static_cast<std::uint32_t>(recv)));
}

}  // namespace tsunagi::sim::ns3

namespace tsunagi::sim::ns3 {

void ProcessHost::apply_site_stack(const SocketPtr& socket, int peer, bool listener) const {
  const Ns3SiteTcp* tcp = world_.site_tcp(self_.cluster);
  if (tcp == nullptr) return;
  // Both are agreed in the handshake: a connection scales its window (or uses SACK) only when
  // both ends offer it.
  socket->SetAttribute("WindowScaling", ::ns3::BooleanValue(tcp->window_scaling));
  socket->SetAttribute("Sack", ::ns3::BooleanValue(tcp->sack));
  if (!listener) size_site_buffers(socket, peer);
}

void ProcessHost::size_site_buffers(const SocketPtr& socket, int peer) const {
  const Ns3SiteTcp* tcp = world_.site_tcp(self_.cluster);
  if (tcp == nullptr || peer < 0 || static_cast<std::size_t>(peer) >= tcp->send_to.size()) return;
  const auto p = static_cast<std::size_t>(peer);
  size_buffers(socket, tcp->send_to[p], tcp->recv_from[p]);
}

}  // namespace tsunagi::sim::ns3
