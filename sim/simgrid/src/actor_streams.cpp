// Connections: handshake, ordered streams, close. Modelled on TCP at the level the core sees.
//
// connect:  SYN (64 B) to the target's inbox; the target's adapter accepts on its own (like a
//           kernel with a listening socket), tells its core AcceptedInput and answers SYN-ACK as
//           the first segment of its stream; the connector's core gets ConnectedInput on it.
//           Unknown endpoint: Unreachable; exited target: Refused. A LAN SYN always arrives; how
//           long to wait for an answer is the core's decision (it closes the connection; a late
//           SYN-ACK is then answered with a reset so the acceptor learns).
// streams:  each direction keeps one message in flight, so frames arrive in order and a
//           connection's bandwidth share is that of one flow. Frames queued meanwhile leave
//           together in the next message (as TCP fills a segment from its send buffer) and are
//           delivered one by one, in order, when it arrives.
// close:    queued frames go first, the FIN rides on the last message (64 B alone); the peer's
//           core gets ClosedInput. Writing to a process that has exited ends the connection like
//           a reset.
#include <algorithm>
#include <iterator>
#include <vector>

#include "process_actor.hpp"
#include "time_units.hpp"

namespace tsunagi::sim::simgrid {

void ProcessActor::open_connection(const ConnectCmd& cmd, const SetWindowCmd* window) {
  if (window != nullptr) apply_window(*window);
  const int target = world_.find(cmd.to);
  if (target < 0) {
    // A machine of the run answers a port nobody listens on with a reset; an address that is no
    // machine's is unreachable (a kernel says so at once).
    deliver(ConnectFailedInput{cmd.conn, world_.is_host_of_run(cmd.to)
                                             ? ConnectFailure::Refused
                                             : ConnectFailure::Unreachable});
    return;
  }
  if (world_.exited(target) || conns_.count(cmd.conn) != 0) {
    deliver(ConnectFailedInput{cmd.conn, ConnectFailure::Refused});
    return;
  }
  if (world_.has_wan()) return connect_wan(cmd, target);
  Conn& conn = conns_[cmd.conn];
  conn.state = ConnState::Connecting;
  conn.peer = target;
  conn.attempt = ++connect_attempts_;
  Message* syn = world_.pool().take();
  syn->kind = MessageKind::Syn;
  syn->conn = cmd.conn;
  put(target, syn, kControlBytes, Watch{MessageKind::Syn, target, cmd.conn});
}

// The SYN reached the target's host. A target that has exited answers with a reset, which we
// take as arriving now (its way back is not modelled).
void ProcessActor::on_syn_put_done(const Watch& what) {
  if (!world_.exited(what.target)) return;
  auto it = conns_.find(what.conn);
  if (it == conns_.end() || it->second.peer != what.target) return;
  const bool tell_core = it->second.state == ConnState::Connecting;
  conns_.erase(it);
  if (tell_core) deliver(ConnectFailedInput{what.conn, ConnectFailure::Refused});
}

// The kernel has sent its last SYN retransmission and waited: the world's give-up, not the
// protocol's. A connection the core already closed is forgotten quietly.
void ProcessActor::on_syn_give_up(ConnId id, std::uint64_t attempt) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.attempt != attempt) return;
  const bool tell_core = it->second.state == ConnState::Connecting;
  if (!tell_core && it->second.state != ConnState::Abandoned) return;
  conns_.erase(it);
  if (tell_core) deliver(ConnectFailedInput{id, ConnectFailure::TimedOut});
}

void ProcessActor::on_syn(const Message& message) {
  const ConnId id = driver_.next_accepted_conn();
  Conn& conn = conns_[id];
  conn.state = ConnState::Open;
  conn.peer = message.from;
  conn.peer_conn = message.conn;
  conn.syn_ack_due = true;
  pump(id, conn);
  deliver(AcceptedInput{id});
}

void ProcessActor::on_syn_ack(const Message& message) {
  auto it = conns_.find(message.conn);
  if (it == conns_.end() || it->second.peer != message.from ||
      it->second.state != ConnState::Connecting) {
    // We gave up on this connection (time-out or close): tell the acceptor it is gone.
    if (it != conns_.end() && it->second.state == ConnState::Abandoned) conns_.erase(it);
    send_reset(message.from, message.peer_conn);
    return;
  }
  it->second.state = ConnState::Open;
  it->second.peer_conn = message.peer_conn;
  if (world_.has_wan()) world_.count_wan_connection(index_, message.from);
  deliver(ConnectedInput{message.conn});
  // The core may have closed it already, or sent frames while connecting.
  it = conns_.find(message.conn);
  if (it != conns_.end()) pump(it->first, it->second);
}

void ProcessActor::on_stream(Message& message) {
  const ConnId id = message.conn;
  for (Frame& frame : message.frames) {
    auto it = conns_.find(id);
    if (it == conns_.end() || it->second.peer != message.from ||
        it->second.state != ConnState::Open)
      return;  // we closed it: what is still on its way is dropped, as by a closed socket
    deliver(ReceivedInput{id, std::move(frame.bytes), frame.filler});
  }
  if (message.fin) {
    auto it = conns_.find(id);
    if (it != conns_.end() && it->second.peer == message.from) on_peer_closed(id);
  }
}

void ProcessActor::on_reset(const Message& message) {
  auto it = conns_.find(message.conn);
  if (it != conns_.end() && it->second.peer == message.from) on_peer_closed(message.conn);
}

// FIN or reset from the peer: its core will send nothing more and read nothing more.
void ProcessActor::on_peer_closed(ConnId id) {
  auto it = conns_.find(id);
  Conn& conn = it->second;
  if (conn.state == ConnState::Connecting || conn.state == ConnState::Abandoned) return;
  const bool tell_core = conn.state == ConnState::Open;
  conn.peer_gone = true;
  conn.queue.clear();
  if (!conn.sending) conns_.erase(it);
  if (tell_core) deliver(ClosedInput{id});
}

void ProcessActor::send(SendCmd& cmd) {
  auto it = conns_.find(cmd.conn);
  if (it == conns_.end() || it->second.peer_gone) return;
  Conn& conn = it->second;
  if (conn.state != ConnState::Open && conn.state != ConnState::Connecting) return;
  conn.queue.push_back(Frame{std::move(cmd.bytes), cmd.filler});
  // Sent once the core's step is over (step_performed): what one step writes to a connection
  // leaves as one message, as a kernel sends two writes of one wake-up in one segment.
  if (!conn.sending && conn.queue.size() == 1) unpumped_.push_back(cmd.conn);
}

void ProcessActor::step_performed() {
  for (ConnId id : unpumped_) {
    auto it = conns_.find(id);
    if (it != conns_.end()) pump(id, it->second);
  }
  unpumped_.clear();
}

void ProcessActor::close(ConnId id, bool /*refused*/) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn& conn = it->second;
  if (conn.state == ConnState::Connecting) {
    conn.state = ConnState::Abandoned;  // kept until the SYN-ACK or the kernel's give-up
    conn.queue.clear();
  } else if (conn.state == ConnState::Open) {
    conn.state = ConnState::Closing;
    if (conn.peer_gone) {
      if (!conn.sending) conns_.erase(it);
      return;
    }
    conn.fin_due = true;
    pump(id, conn);
  }
}

void ProcessActor::close_all() {
  runner::close_each(conns_, [this](ConnId id) { close(id); });
}

// Sends what the connection has waiting, if nothing of it is in flight.
namespace {

// The frames of the next message: the oldest queued frame and the ones after it while the
// message stays within `cap` (kStreamBatchBytes while the process runs). A whole message arrives at
// once, so a frame batched with later ones is delivered when they are: a cap keeps that delay small
// (64 KiB is 12 µs at 5.25 GB/s), where sending every queued 1 MB piece of a multicast ring
// together delivered the first one a whole piece late (TCP hands bytes over as they arrive).
// Returns the bytes taken.
std::uint64_t take_batch(std::vector<Frame>& queue, std::vector<Frame>& batch, std::uint64_t cap) {
  std::uint64_t size = 0;
  std::size_t count = 0;
  for (const Frame& frame : queue) {
    const std::uint64_t bytes = frame.bytes.size() + frame.filler;
    if (count > 0 && size + bytes > cap) break;
    size += bytes;
    ++count;
  }
  if (count == queue.size()) {
    batch.swap(queue);  // the pooled vector's capacity moves to the queue
  } else {
    const auto end = queue.begin() + static_cast<std::ptrdiff_t>(count);
    batch.assign(std::make_move_iterator(queue.begin()), std::make_move_iterator(end));
    queue.erase(queue.begin(), end);
  }
  return size;
}

}  // namespace

void ProcessActor::pump(ConnId id, Conn& conn) {
  if (conn.sending || conn.peer_gone) return;
  if (conn.state != ConnState::Open && conn.state != ConnState::Closing) return;
  if (!conn.syn_ack_due && conn.queue.empty() && !conn.fin_due) return;
  Message* message = world_.pool().take();
  message->conn = conn.peer_conn;
  message->peer_conn = id;
  std::uint64_t size = kControlBytes;
  if (conn.syn_ack_due) {
    conn.syn_ack_due = false;
    message->kind = MessageKind::SynAck;
  } else {
    message->kind = MessageKind::Stream;
    // An exited process flushes the rest at once: its peer may be done and gone before a second
    // batch, and a write to a process that has exited resets the connection.
    const std::uint64_t cap = driver_.exited() ? UINT64_MAX : kStreamBatchBytes;
    if (!conn.queue.empty()) size = take_batch(conn.queue, message->frames, cap);
    // A FIN riding on the last frames costs nothing extra.
    message->fin = conn.fin_due && conn.queue.empty();
    conn.fin_sent = message->fin;
    conn.fin_due = conn.fin_due && !message->fin;
  }
  conn.sending = true;
  const auto buffer = send_buffers_.find(id);
  double rate =
      world_.stream_rate(index_, conn.peer, buffer == send_buffers_.end() ? 0 : buffer->second,
                         world_.recv_buffer(conn.peer, conn.peer_conn));
  if (world_.slow_start() && message->kind == MessageKind::Stream)
    rate = with_slow_start(conn, size, rate);
  put(conn.peer, message, size, Watch{message->kind, conn.peer, id}, rate);
}

// The window's round trips as a lower rate cap: alone on its route the message then arrives as
// late as the rounds make it; shared, it gets the lower of its share and that cap.
double ProcessActor::with_slow_start(Conn& conn, std::uint64_t bytes, double rate) {
  if (bytes <= conn.window && bytes * 2 < conn.window) return rate;  // nothing waits or grows
  // One route lookup: its round trip without payload and its slowest link.
  const World::RouteFigures route = world_.route_figures(index_, conn.peer);
  const double link_rate = rate > 0 ? std::min(rate, route.bottleneck) : route.bottleneck;
  const SlowStartCost cost =
      slow_start_cost(conn.window, bytes, 2 * to_ns(route.latency_s), link_rate);
  conn.window = cost.window;
  const double cap = slow_start_rate(bytes, link_rate, cost.waiting);
  return cap > 0 ? cap : rate;
}

void ProcessActor::on_stream_put_done(const Watch& what) {
  auto it = conns_.find(what.conn);
  if (it == conns_.end() || it->second.peer != what.target) return;
  Conn& conn = it->second;
  conn.sending = false;
  if (world_.exited_before(conn.peer, now())) {
    // Written to a process that had exited: the connection is reset. A peer that exits at the
    // very instant the message arrives read it first (its exit was its answer to it).
    const bool tell_core = conn.state == ConnState::Open && !conn.peer_gone;
    conns_.erase(it);
    if (tell_core) deliver(ClosedInput{what.conn});
    return;
  }
  if (conn.fin_sent || conn.peer_gone) {
    conns_.erase(it);
    return;
  }
  pump(what.conn, conn);
}

// The core's buffers for a connection: our send buffer bounds what we send, our receive buffer
// what the peer sends (it reads it from the world).
void ProcessActor::apply_window(const SetWindowCmd& cmd) {
  send_buffers_[cmd.conn] = cmd.send_buffer;
  world_.set_recv_buffer(index_, cmd.conn, cmd.recv_buffer);
}

void ProcessActor::send_reset(int target, ConnId peer_conn) {
  Message* reset = world_.pool().take();
  reset->kind = MessageKind::Reset;
  reset->conn = peer_conn;
  put(target, reset, kControlBytes, Watch{MessageKind::Reset, target});
}

}  // namespace tsunagi::sim::simgrid
