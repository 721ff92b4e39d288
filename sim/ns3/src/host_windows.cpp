// TCP windows on ns-3 sockets (issue 15): the buffers the core gives a connection.
#include <algorithm>

#include <ns3/boolean.h>
#include <ns3/simulator.h>
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

namespace tsunagi::sim::ns3 {

// ns-3 3.37 reads a SYN's window-scale and SACK options on the listening socket before it forks
// the connection, and switches each off there when the SYN lacks it: that is how the new
// connection learns what the handshake agreed on (the peer's scale included), but it leaves
// the listener switched off for every later SYN. A later SYN from a site that scales was then
// read without its option: its connection had scaling on, from the callback that used to set
// it, with the peer's scale never read (0), so this end saw the peer's window as at most 64 KB
// (Kyoto's and Kyushu's ping-pongs crawled at 64 KB / RTT in one direction, docs/ns3.md).
// Now the listener gets this site's own options back right after each fork.
bool ProcessHost::listener_options_read(const SocketPtr& listener) {
  const Ns3SiteTcp* own = world_.site_tcp(self_.cluster);
  if (own == nullptr) return true;
  n3::Socket* raw = n3::PeekPointer(listener);
  const bool restoring = std::find(listeners_to_restore_.begin(), listeners_to_restore_.end(),
                                   raw) != listeners_to_restore_.end();
  n3::BooleanValue scaling;
  n3::BooleanValue sack;
  listener->GetAttribute("WindowScaling", scaling);
  listener->GetAttribute("Sack", sack);
  const bool switched_off = (own->window_scaling && !scaling.Get()) || (own->sack && !sack.Get());
  // Two SYNs in one instant: the second was read before the first's options came back, so
  // what it offered is lost. Refused, it is sent again after the peer's retransmission timeout.
  if (restoring && switched_off) return false;
  if (!restoring && switched_off) {
    listeners_to_restore_.push_back(raw);
    n3::Simulator::ScheduleNow(&ProcessHost::restore_listener_options, this, listener);
  }
  return true;
}

void ProcessHost::restore_listener_options(const SocketPtr& listener) {
  listeners_to_restore_.erase(std::remove(listeners_to_restore_.begin(),
                                          listeners_to_restore_.end(), n3::PeekPointer(listener)),
                              listeners_to_restore_.end());
  apply_site_stack(listener, -1, true);
}

}  // namespace tsunagi::sim::ns3
