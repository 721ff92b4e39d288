// The TCP socket every process of the ns-3 backend uses: ns-3's own TcpSocketBase with two
// changes real stacks make.
//
// 1. A duplicate SYN-ACK in ESTABLISHED is answered with an ACK. Why: the connector's last
// handshake ACK can be lost at a full port queue (the connect storms of 700+ processes on
// 1,000-packet queues do it). The acceptor then retransmits its SYN-ACK with backoff (1, 2, 4 ...
// 64 s) until it gives up, and ns-3 3.37's connector, already ESTABLISHED, ignores every one
// ("probably a duplicated packet"). Linux, BSD and RFC 793 answer it with an ACK, which completes
// the acceptor's handshake. Where the connector speaks first, its data segment completes it anyway;
// tsunagi's authenticated handshake has the acceptor speak first (its challenge), so on ns-3 both
// ends waited for ever: 49 of 700 and 163 of 1,000 ranks of switched-1k never finished their static
// connections (docs/ns3.md).
//
// 2. A listener keeps its own TCP options. ns-3 3.37 reads a SYN's window-scale, SACK and
// timestamp options on the listening socket, switching each off there when the SYN lacks it,
// and the fork copies the result: that is how a new connection learns what its handshake
// agreed on. Left alone, the listener stays switched off for every later SYN, so a peer that
// scales, arriving after one that does not, has its scale never read and its window seen as at
// most 64 KB (docs/ns3.md, "TCP windows"). A real listener negotiates each SYN on its own: this
// one takes back, right after each fork, the options it had when it began to listen.
#pragma once

#include <ns3/node.h>
#include <ns3/tcp-socket-base.h>

namespace tsunagi::sim::ns3 {

class AnsweringTcpSocket : public ::ns3::TcpSocketBase {
 public:
  static ::ns3::TypeId GetTypeId();
  AnsweringTcpSocket() = default;
  AnsweringTcpSocket(const AnsweringTcpSocket& other) = default;

  // Remembers the options set so far as this listener's own (set them before listening).
  int Listen() override;

 protected:
  void DoForwardUp(::ns3::Ptr<::ns3::Packet> packet, const ::ns3::Address& from,
                   const ::ns3::Address& to) override;
  // An accepted connection is a copy of its listener (of this class too), with the options its
  // SYN agreed on; the listener then gets its own back.
  ::ns3::Ptr<::ns3::TcpSocketBase> Fork() override;

 private:
  struct Options {
    bool window_scaling = true;
    bool sack = true;
    bool timestamps = true;
  };
  Options listening_options_;
};

// A socket of that class on `node`, set up as ns-3's TcpL4Protocol::CreateSocket sets up its
// own (the node's RTT estimator, congestion control and recovery types) and registered with it.
::ns3::Ptr<::ns3::Socket> create_tcp_socket(const ::ns3::Ptr<::ns3::Node>& node);

}  // namespace tsunagi::sim::ns3
