// Connects across cluster routers (issue 6, paper 001). The policies decide first
// (scenario::policy_outcome): a refusing firewall answers after one round trip (RST / ICMP
// reject, ConnectFailure::Refused); a dropping firewall or a NAT'd private address swallows
// every SYN, so the connect fails when the kernel gives up (network.syn: 1 s doubling over 6
// retries = 127 s; the paper's 3 s over 5 = 189 s); the core gives up earlier by closing the
// connection when its own connect_timeout passes. An accepted SYN still has to pass the routers'
// rate limits: a SYN finding a token bucket empty is dropped and retransmitted on the same
// schedule. This is what made the paper's 64-process all-to-all connect take 189 s.
#include "process_actor.hpp"

namespace tsunagi::sim::simgrid {

void ProcessActor::connect_wan(const ConnectCmd& cmd, int target) {
  Conn& conn = conns_[cmd.conn];
  conn.state = ConnState::Connecting;
  conn.peer = target;
  conn.attempt = ++connect_attempts_;
  arm(TimerKind::SynGiveUp, cmd.conn, now() + world_.syn_give_up(), conn.attempt);
  switch (world_.policy(index_, target)) {
    case scenario::ConnectOutcome::Refuse:
      arm(TimerKind::Refused, cmd.conn, now() + world_.route_rtt(index_, target, kControlBytes),
          conn.attempt);
      return;
    case scenario::ConnectOutcome::Drop:
      return;  // every SYN vanishes: the kernel's give-up above reports it
    case scenario::ConnectOutcome::Accept:
      send_syn(cmd.conn, conn.attempt);
      return;
  }
}

// One SYN (the first or a retransmission) leaves now, unless a router's bucket is empty.
void ProcessActor::send_syn(ConnId id, std::uint64_t attempt) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.attempt != attempt) return;
  Conn& conn = it->second;
  if (conn.state != ConnState::Connecting) return;
  if (!world_.pass_syn(index_, conn.peer, now())) {
    // Dropped by a router. The kernel retransmits while it has retries left; after the last
    // one the SynGiveUp armed by connect_wan fires.
    if (conn.syn_retries < world_.syn_retries())
      arm(TimerKind::SynRetry, id, now() + world_.syn_retry_delay(conn.syn_retries++), attempt);
    return;
  }
  Message* syn = world_.pool().take();
  syn->kind = MessageKind::Syn;
  syn->conn = id;
  put(conn.peer, syn, kControlBytes, Watch{MessageKind::Syn, conn.peer, id});
}

void ProcessActor::on_refused(ConnId id, std::uint64_t attempt) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.attempt != attempt) return;
  if (it->second.state != ConnState::Connecting) return;
  conns_.erase(it);
  deliver(ConnectFailedInput{id, ConnectFailure::Refused});
}

}  // namespace tsunagi::sim::simgrid
