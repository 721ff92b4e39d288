// Connections over real ns-3 TCP sockets.
//
// connect:  a TCP socket connects to the target's listening port (loopback when the target runs
//           on the same node). Success gives ConnectedInput; a reset (nobody listens: unknown
//           port, process exited) gives ConnectFailed{Refused}; an endpoint no process has is
//           unreachable at once (the directory only hands out real ones); ns-3's SYN retries
//           running out gives ConnectFailed{TimedOut}. A connect the core closes before it
//           completes is dropped (a late SYN-ACK then meets a closed port and the acceptor gets a
//           reset).
// accept:   the listener accepts every connection, like a kernel's listen queue; the core gets
//           AcceptedInput when the handshake completes (ns-3 tells the acceptor then).
// streams:  each SendCmd's bytes, then its filler as real zero bytes, are written to the socket
//           as its send buffer has room; TCP splits and coalesces them as it likes and the
//           receiver's core gets ReceivedInput with whatever bytes arrived (its deframer
//           re-frames them). Filler zeros are ns-3 zero-area packets: no memory is touched
//           until the receiver copies them out.
// close:    queued bytes go first, then the FIN. The peer's core gets ClosedInput on the FIN or
//           a reset; bytes arriving on a connection this side closed are dropped.
#include <algorithm>
#include <vector>

#include <ns3/inet-socket-address.h>
#include <ns3/packet.h>
#include <ns3/simulator.h>
#include <ns3/tcp-header.h>
#include <ns3/tcp-socket-base.h>
#include <ns3/udp-socket-factory.h>

#include "process_host.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

void ProcessHost::open_listeners() {
  listener_ = new_tcp_socket();
  apply_site_stack(listener_, -1, true);
  // Any address: peers on other nodes reach the host's address, those on this node loopback.
  listener_->Bind(n3::InetSocketAddress(n3::Ipv4Address::GetAny(), self_.port));
  listener_->Listen();
  listener_->SetAcceptCallback(n3::MakeCallback(&ProcessHost::accept_request, this),
                               n3::MakeCallback(&ProcessHost::on_accept, this));
  bulk_listener_ = new_tcp_socket();
  apply_site_stack(bulk_listener_, -1, true);
  // A throughput probe's sink is an iperf server with a large window: the prober's send buffer
  // (its -w) is what bounds the transfer.
  size_buffers(bulk_listener_, 0, kProbeSinkBuffer);
  bulk_listener_->Bind(n3::InetSocketAddress(
      n3::Ipv4Address::GetAny(), static_cast<std::uint16_t>(self_.port + kBulkPortOffset)));
  bulk_listener_->Listen();
  bulk_listener_->SetAcceptCallback(n3::MakeCallback(&ProcessHost::accept_request, this),
                                    n3::MakeCallback(&ProcessHost::on_bulk_accept, this));
  udp_ = n3::Socket::CreateSocket(self_.node, n3::UdpSocketFactory::GetTypeId());
  udp_->Bind(n3::InetSocketAddress(n3::Ipv4Address::GetAny(),
                                   static_cast<std::uint16_t>(self_.port + kProbePortOffset)));
  udp_->SetRecvCallback(n3::MakeCallback(&ProcessHost::on_datagram, this));
}

// The new connection is forked from the listener right after this call and takes the window
// scaling and SACK the SYN agreed on from it (tcp_socket.hpp, docs/ns3.md).
bool ProcessHost::accept_request(SocketPtr /*listener*/, const n3::Address& /*from*/) {
  return !driver_.exited();
}

void ProcessHost::watch(ConnId id, const SocketPtr& socket) {
  by_socket_[n3::PeekPointer(socket)] = id;
  socket->SetConnectCallback(n3::MakeCallback(&ProcessHost::on_connected, this),
                             n3::MakeCallback(&ProcessHost::on_connect_error, this));
  socket->SetCloseCallbacks(n3::MakeCallback(&ProcessHost::on_normal_close, this),
                            n3::MakeCallback(&ProcessHost::on_error_close, this));
  socket->SetRecvCallback(n3::MakeCallback(&ProcessHost::on_readable, this));
  socket->SetSendCallback(n3::MakeCallback(&ProcessHost::on_writable, this));
}

ConnId ProcessHost::conn_of(const SocketPtr& socket) const {
  auto it = by_socket_.find(n3::PeekPointer(socket));
  return it == by_socket_.end() ? 0 : it->second;
}

void ProcessHost::release(ConnId id, bool close_socket) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  SocketPtr socket = it->second.socket;
  by_socket_.erase(n3::PeekPointer(socket));
  conns_.erase(it);
  socket->SetConnectCallback(n3::MakeNullCallback<void, SocketPtr>(),
                             n3::MakeNullCallback<void, SocketPtr>());
  socket->SetCloseCallbacks(n3::MakeNullCallback<void, SocketPtr>(),
                            n3::MakeNullCallback<void, SocketPtr>());
  socket->SetRecvCallback(n3::MakeNullCallback<void, SocketPtr>());
  socket->SetSendCallback(n3::MakeNullCallback<void, SocketPtr, std::uint32_t>());
  if (close_socket) socket->Close();
}

void ProcessHost::open_connection(const ConnectCmd& cmd, const SetWindowCmd* window) {
  const int target = world_.find(cmd.to);
  if (target < 0 || conns_.count(cmd.conn) != 0) {
    // A node of the run answers a port nobody listens on with a reset; an address that is no
    // node's is unreachable (a kernel says so at once).
    deliver(ConnectFailedInput{cmd.conn, world_.is_address_of_run(cmd.to)
                                             ? ConnectFailure::Refused
                                             : ConnectFailure::Unreachable});
    return;
  }
  SocketPtr socket = new_tcp_socket();
  apply_site_stack(socket, world_.slot(target).cluster);
  // Buffers before the SYN: ns-3 derives the window scale it offers from the receive buffer.
  if (window != nullptr) size_buffers(socket, window->send_buffer, window->recv_buffer);
  socket->Bind();
  Conn& conn = conns_[cmd.conn];
  conn.socket = socket;
  conn.attempt = ++connect_attempts_;
  watch(cmd.conn, socket);
  socket->TraceConnectWithoutContext("Rx", n3::MakeCallback(&ProcessHost::on_segment, this));
  // How long to wait is the core's decision: it closes the connection when its connect_timeout
  // passes. ns-3's own give-up (its SYN retries, network.syn) is the world's.
  socket->Connect(n3::InetSocketAddress(address_of(target), world_.slot(target).port));
}

void ProcessHost::apply_window(const SetWindowCmd& cmd) {
  auto it = conns_.find(cmd.conn);
  if (it != conns_.end()) size_buffers(it->second.socket, cmd.send_buffer, cmd.recv_buffer);
}

void ProcessHost::on_connected(SocketPtr socket) {
  const ConnId id = conn_of(socket);
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  it->second.state = ConnState::Open;
  deliver(ConnectedInput{id});
  // The core may have queued frames while connecting, or closed the connection meanwhile.
  it = conns_.find(id);
  if (it != conns_.end()) pump(id, it->second);
}

// ns-3 gives up on a connect only when its SYN retries run out (network.syn): no answer at all.
// It calls back from inside its retransmission timer, before it has finished closing the
// socket; closing it again from here sent a reset from a half-torn-down socket and left a
// persist timer on a freed buffer. So the failure is handled after ns-3 is done, and the socket
// (closed by ns-3 itself) is only released.
void ProcessHost::on_connect_error(SocketPtr socket) {
  const ConnId id = conn_of(socket);
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  n3::Simulator::ScheduleNow(&ProcessHost::give_up_connect, this, id, it->second.attempt);
}

void ProcessHost::give_up_connect(ConnId id, std::uint64_t attempt) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.attempt != attempt ||
      it->second.state != ConnState::Connecting)
    return;
  release(id, false);
  deliver(ConnectFailedInput{id, ConnectFailure::TimedOut});
}

// ns-3 3.37's TCP ignores a reset answering its SYN (it keeps retrying), so the adapter watches
// the socket's received segments: a real RST while connecting means nobody listens there (any
// more), which a kernel reports as ECONNREFUSED. Handled after ns-3 finished with the segment.
void ProcessHost::on_segment(n3::Ptr<const n3::Packet>, const n3::TcpHeader& header,
                             n3::Ptr<const n3::TcpSocketBase> socket) {
  if ((header.GetFlags() & n3::TcpHeader::RST) == 0) return;
  auto* raw = const_cast<n3::Socket*>(static_cast<const n3::Socket*>(n3::PeekPointer(socket)));
  auto it = by_socket_.find(raw);
  if (it == by_socket_.end()) return;
  auto conn = conns_.find(it->second);
  if (conn == conns_.end() || conn->second.state != ConnState::Connecting) return;
  n3::Simulator::ScheduleNow(&ProcessHost::refuse_connect, this, it->second, conn->second.attempt);
}

void ProcessHost::refuse_connect(ConnId id, std::uint64_t attempt) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.attempt != attempt) return;
  fail_connect(id, ConnectFailure::Refused);
}

void ProcessHost::fail_connect(ConnId id, ConnectFailure reason) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.state != ConnState::Connecting) return;
  release(id, true);
  deliver(ConnectFailedInput{id, reason});
}

void ProcessHost::on_accept(SocketPtr socket, const n3::Address& from) {
  if (driver_.exited()) {
    socket->Close();
    return;
  }
  if (n3::InetSocketAddress::IsMatchingType(from))
    size_site_buffers(socket,
                      world_.cluster_at(n3::InetSocketAddress::ConvertFrom(from).GetIpv4()));
  const ConnId id = driver_.next_accepted_conn();
  Conn& conn = conns_[id];
  conn.socket = socket;
  conn.state = ConnState::Open;
  watch(id, socket);
  deliver(AcceptedInput{id});
  // Bytes that came with the handshake's last segment were there before we watched.
  if (conns_.count(id) != 0 && socket->GetRxAvailable() > 0) on_readable(socket);
}

void ProcessHost::on_readable(SocketPtr socket) {
  const ConnId id = conn_of(socket);
  Bytes bytes;
  while (n3::Ptr<n3::Packet> packet = socket->Recv()) {
    if (packet->GetSize() == 0) break;
    const std::size_t old = bytes.size();
    bytes.resize(old + packet->GetSize());
    packet->CopyData(bytes.data() + old, packet->GetSize());
  }
  auto it = conns_.find(id);
  // Closed by this side (or exited): what still arrives is dropped, as by a closed socket.
  if (bytes.empty() || it == conns_.end() || it->second.state != ConnState::Open) return;
  deliver(ReceivedInput{id, std::move(bytes), 0});
}

void ProcessHost::on_writable(SocketPtr socket, std::uint32_t) {
  const ConnId id = conn_of(socket);
  auto it = conns_.find(id);
  if (it != conns_.end()) pump(id, it->second);
}

void ProcessHost::on_normal_close(SocketPtr socket) {
  on_peer_gone(socket);
}
void ProcessHost::on_error_close(SocketPtr socket) {
  on_peer_gone(socket);
}

// The peer's FIN or reset (or the end of our own close): the peer sends and reads no more.
void ProcessHost::on_peer_gone(SocketPtr socket) {
  const ConnId id = conn_of(socket);
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  // ns-3 reports a reset answering our SYN as a close, not as a failed connect.
  if (it->second.state == ConnState::Connecting) return fail_connect(id, ConnectFailure::Refused);
  const bool tell_core = it->second.state == ConnState::Open;
  // Our side closes too (CLOSE_WAIT -> LAST_ACK); nothing queued is worth sending.
  release(id, true);
  if (tell_core) deliver(ClosedInput{id});
}

void ProcessHost::send(SendCmd& cmd) {
  auto it = conns_.find(cmd.conn);
  if (it == conns_.end() || it->second.state == ConnState::Closing) return;
  it->second.queue.push_back(Chunk{std::move(cmd.bytes), cmd.filler, 0});
  pump(cmd.conn, it->second);
}

void ProcessHost::close(ConnId id, bool /*refused*/) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  if (it->second.state == ConnState::Connecting) {
    release(id, true);  // a late SYN-ACK meets a closed port: the acceptor gets a reset
    return;
  }
  it->second.state = ConnState::Closing;
  pump(id, it->second);
}

void ProcessHost::close_all() {
  runner::close_each(conns_, [this](ConnId id) { close(id); });
}

// Hands queued bytes to the socket as far as its send buffer allows; once a closing
// connection's queue is empty, closes the socket (ns-3 sends the FIN after the buffered data).
void ProcessHost::pump(ConnId id, Conn& conn) {
  if (conn.state == ConnState::Connecting) return;
  while (!conn.queue.empty()) {
    const std::uint32_t space = conn.socket->GetTxAvailable();
    if (space == 0) return;  // on_writable comes back when there is room
    Chunk& chunk = conn.queue.front();
    const std::uint64_t total = chunk.bytes.size() + chunk.zeros;
    n3::Ptr<n3::Packet> packet;
    std::uint64_t n = 0;
    if (chunk.written < chunk.bytes.size()) {
      n = std::min<std::uint64_t>(space, chunk.bytes.size() - chunk.written);
      packet =
          n3::Create<n3::Packet>(chunk.bytes.data() + chunk.written, static_cast<std::uint32_t>(n));
    } else {
      n = std::min<std::uint64_t>(space, total - chunk.written);
      packet = n3::Create<n3::Packet>(static_cast<std::uint32_t>(n));  // zero-filled
    }
    if (conn.socket->Send(packet) < 0) return;
    chunk.written += n;
    if (chunk.written == total) conn.queue.pop_front();
  }
  if (conn.state == ConnState::Closing) {
    // Keep watching nothing: the peer's FIN or reset no longer concerns the core.
    release(id, true);
  }
}

}  // namespace tsunagi::sim::ns3
