#include "node/node.hpp"

#include "tsunagi/model/roles.hpp"
#include "wire/rank_checks.hpp"

namespace tsunagi {
std::unique_ptr<Process> make_node() {
  return std::make_unique<Node>();
}

void Node::on_started(const StartedInput& in) {
  rank_ = in.rank;
  self_ = in.self;
  host_ = in.host;
  site_ = in.site;
  config_ = in.config;
  key_ = auth::RunKey(in.secret, in.nonce_seed);
  n_ = config_->processes;
  shortcuts_.cache_ = ShortcutCache(config_->overlay.shortcut_capacity);
  inference_.rtt_sampler_.set_policy(
      {config_->inference.rtt_timeout, config_->inference.rtt_lost_limit});
  phase_ = Phase::Registering;
  registration_.start(in.rendezvous, now_);
  connect_to_rendezvous();
}

ConnId Node::open_connection(const Endpoint& to, Rank peer, wire::ConnPurpose purpose) {
  const ConnId id =
      open_outgoing(to, config_->overlay.connect_timeout, [&](ConnId opened, Conn& c) {
        c.peer = peer;
        c.purpose = purpose;
        // Window scaling is agreed in the handshake: the buffers are sized before the connect.
        if (purpose == wire::ConnPurpose::Static || purpose == wire::ConnPurpose::Shortcut)
          windows_.size_window(opened, peer);
      });
  // The hello is queued like any frame and goes out first once connected.
  send_frame(id, wire::make_hello({rank_, purpose}));
  return id;
}

// Connects are paced by TCP (the next static connect may start); the peer is up only once it
// has proven the run's secret, which it must do by the initiator's handshake deadline.
void Node::connect_made(const Conn& c) {
  overlay_.static_connect_settled(c);
}

void Node::handshake_timed_out(const Conn& c) {
  trace("handshake_timed_out", {{"peer", c.peer}});
}

// An outgoing connection is up: connected, and its acceptor proved the run's secret. Before
// issue 29 static peers, shortcuts and relays counted as up at the TCP connect, so a silent
// listener on a peer's port passed for the peer.
void Node::on_outgoing_open(ConnId id) {
  deadlines_.settle(id);
  Conn& c = conns_.at(id);
  if (c.purpose == wire::ConnPurpose::Static) overlay_.static_peer_up(c.peer, id);
  if (c.purpose == wire::ConnPurpose::Shortcut) shortcuts_.shortcut_up(c.peer, id, true);
  if (c.purpose == wire::ConnPurpose::Relay) relay_.relay_up(id);
  if (c.purpose == wire::ConnPurpose::Collect) collecting_.collect_conn_open(c.peer);
}

// Besides the connect deadlines (role_connections.hpp), only registration and workloads arm
// timers.
void Node::on_timer(std::uint64_t timer) {
  if (timer == RegistrationRetry::kTimer) return connect_to_rendezvous();
  if (auto* w = work_.workload()) w->on_timer(work_, timer);
}

void Node::on_rtt_measured(const RttMeasuredInput& in) {
  inference_.take_echo_step(inference_.rtt_sampler_.on_echo(in, now_));
}

void Node::on_throughput_measured(const ThroughputMeasuredInput& in) {
  if (in.probe & kWindowProbeBit) return windows_.on_window_throughput(in);
  if (in.probe & kWorkloadProbeBit) return work_.on_throughput(in);
  inference_.on_throughput(in);
}

void Node::on_compute_done(const ComputeDoneInput& in) {
  if (in.task == CpuQueue::kCpuTaskBit) return cpu_.on_cpu_done();
  if (auto* w = work_.workload()) w->on_compute_done(work_, in.task);
}

void Node::on_connect_failed(const ConnectFailedInput& in, const std::string& why) {
  std::optional<Conn> taken = take_failed(in.conn);
  if (!taken) return;
  Conn c = std::move(*taken);
  windows_.release_window(c);
  static const char* reasons[] = {"refused", "timed_out", "unreachable"};
  trace("connect_failed", {{"peer", c.peer}, {"reason", reasons[static_cast<int>(in.reason)]}});
  if (in.conn == rendezvous_conn_) {
    // Only a connect that never got through is tried again: a listener that fails the
    // handshake is not the run's rendezvous, and waiting will not make it one.
    if (why.empty() && retry_rendezvous()) return;
    phase_ = Phase::Exited;
    emit(ExitCmd{false, "cannot reach the rendezvous" + (why.empty() ? "" : ": " + why)});
    return;
  }
  if (c.purpose == wire::ConnPurpose::Static) {
    // Only we connect (the lower rank): the peer would wait for us forever. Direct: it tries too.
    if (!direct_routing()) send_frame(rendezvous_conn_, wire::make_peer_unreachable(rank_, c.peer));
    overlay_.static_peer_failed(c.peer);
    if (!c.up) overlay_.static_connect_settled(c);  // a connected one was settled at its connect
  }
  if (c.purpose == wire::ConnPurpose::Shortcut) shortcuts_.shortcut_pending_.erase(c.peer);
  if (c.purpose == wire::ConnPurpose::Relay) relay_.relay_gone(in.conn, "relay_attach_failed");
  if (c.purpose == wire::ConnPurpose::Collect && c.outgoing)
    collecting_.collector_failed(c.peer, why.empty() ? reasons[static_cast<int>(in.reason)] : why);
}

void Node::reject(ConnId id, const std::string& reason) {
  ++counters_.frames_rejected;
  auto it = conns_.find(id);
  Rank peer = it == conns_.end() ? kNoRank : it->second.peer;
  trace("frame_rejected", {{"peer", peer}, {"reason", reason}});
  drop(id, reason);
}

void Node::on_frame(ConnId id, wire::Frame frame) {
  using wire::FrameType;
  if (!admit(id, frame)) return;
  Conn& c = conns_.at(id);
  if (frame.type == FrameType::Hello) return NodeFrames{*this}.on_hello(id, frame);
  if (!c.up) return reject(id, "frame before hello");
  const FrameSource source{id == rendezvous_conn_,
                           relay_.relay_conn_ != 0 && id == relay_.relay_conn_, n_};
  if (auto why = node_refusal(source, c, frame)) return reject(id, *why);
  NodeFrames{*this}.dispatch(id, c, std::move(frame));
}

void Node::close_connection(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  forget_counts(it->second);
  conns_.erase(it);
  emit(CloseCmd{id});
}

void Node::on_closed(ConnId id) {
  // Leaving: peers leave as they get their release, nothing to decide.
  if (closed_settled(id, phase_ == Phase::Leaving)) return;
  auto it = conns_.find(id);
  Rank peer = it->second.peer;
  auto purpose = it->second.purpose;
  forget_counts(it->second);
  conns_.erase(it);
  if (purpose == wire::ConnPurpose::Relay) return relay_.relay_gone(id, "relay_lost");
  if (purpose == wire::ConnPurpose::Collect) {
    // Ours: a leader gone before its row came; theirs: the collector is done with us.
    const auto ours = collecting_.collect_conns_.find(peer);
    if (ours != collecting_.collect_conns_.end() && ours->second == id)
      collecting_.collector_failed(peer, "closed");
    return;
  }
  if (purpose == wire::ConnPurpose::Shortcut) {
    auto held = shortcuts_.cache_.find(peer);
    if (held && *held == id) {
      shortcuts_.cache_.erase(peer);
      trace("shortcut_lost", {{"peer", peer}});
    }
  } else if (purpose == wire::ConnPurpose::Static) {
    overlay_.static_conns_.erase(peer);
    trace("static_connection_lost", {{"peer", peer}});
    if (overlay_.routes_) {
      overlay_.routes_->drop_neighbor(peer);
      overlay_.pump_routing();
    } else {
      overlay_.static_peer_failed(peer);
    }
  }
}

// Connections the node counts (connections.*): static links and shortcuts, not the
// rendezvous's, not the one to its relay.
void Node::count_open(ConnId id) {
  conns_.at(id).counted = true;
  ++counters_.open_data_connections;
  counters_.max_data_connections =
      std::max(counters_.max_data_connections, counters_.open_data_connections);
  if (config_->costs.connect > 0) cpu_.charge(CpuQueue::CpuJob::Kind::Pay, config_->costs.connect);
}

void Node::forget_counts(Conn& c) {
  windows_.release_window(c);
  if (c.counted) --counters_.open_data_connections;
  if (c.closing) --counters_.closing_connections;
}

void Node::trace(const char* kind, nlohmann::json detail) {
  emit(TraceCmd{kind, std::move(detail)});
}

}  // namespace tsunagi
