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
  if (workload_) workload_->on_timer(*this, timer);
}

void Node::on_rtt_measured(const RttMeasuredInput& in) {
  inference_.take_echo_step(inference_.rtt_sampler_.on_echo(in, now_));
}

void Node::on_throughput_measured(const ThroughputMeasuredInput& in) {
  if (in.probe & kWindowProbeBit) return windows_.on_window_throughput(in);
  if (in.probe & kWorkloadProbeBit) return on_workload_throughput(in);
  inference_.on_throughput(in);
}

void Node::on_compute_done(const ComputeDoneInput& in) {
  if (in.task == CpuQueue::kCpuTaskBit) return cpu_.on_cpu_done();
  if (workload_) workload_->on_compute_done(*this, in.task);
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
  if (frame.type == FrameType::Hello) return on_hello(id, frame);
  if (!c.up) return reject(id, "frame before hello");
  const FrameSource source{id == rendezvous_conn_,
                           relay_.relay_conn_ != 0 && id == relay_.relay_conn_, n_};
  if (auto why = node_refusal(source, c, frame)) return reject(id, *why);
  switch (frame.type) {
    case FrameType::Directory: {
      auto msg = wire::read_directory(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      return inference_.on_directory(std::get<wire::DirectoryMsg>(std::move(msg)));
    }
    case FrameType::GroupsMsg: {
      auto msg = wire::read_groups(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      auto& body = std::get<wire::GroupsMsgBody>(msg);
      for (const auto& group : body.groups)
        if (auto why = wire::unknown_rank_in(group, n_, "group member")) return reject(id, *why);
      if (auto why = overlay_.placement_refusal(body)) return reject(id, *why);
      return overlay_.on_groups(std::move(body));
    }
    case FrameType::ProbeOrder: {
      auto msg = wire::read_probe_order(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      return inference_.on_probe_order(std::get<wire::ProbeOrderMsg>(msg));
    }
    case FrameType::RttOrder: {
      auto msg = wire::read_rtt_order(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      auto& order = std::get<wire::RttOrderMsg>(msg);
      if (auto why = wire::unknown_rank_in(order.targets, n_, "rtt order target"))
        return reject(id, *why);
      return inference_.on_rtt_order(std::move(order), id);
    }
    case FrameType::RttColumn: {
      auto msg = wire::read_rtt_column(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      const auto& column = std::get<wire::RttColumnMsg>(msg);
      if (auto why = wire::unknown_rank_in(column.peers, n_, "measured")) return reject(id, *why);
      return collecting_.on_collect_answer(c.peer, column);
    }
    case FrameType::WindowOrder: {
      auto msg = wire::read_window_order(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      const auto& order = std::get<wire::WindowOrderMsg>(msg);
      if (auto why = wire::unknown_rank_in(order.ranks, n_, "window rank")) return reject(id, *why);
      return collecting_.on_window_order(order);
    }
    case FrameType::EndpointReply: {
      auto msg = wire::read_endpoint_reply(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      const auto& reply = std::get<wire::EndpointReplyMsg>(msg);
      if (auto why = wire::unknown_rank_in(reply.ranks, n_, "endpoint reply"))
        return reject(id, *why);
      return on_endpoint_reply(reply);
    }
    case FrameType::RouteRound:
      return overlay_.on_route_round(c.peer, frame);
    case FrameType::Data:
      if (c.purpose == wire::ConnPurpose::Shortcut) shortcuts_.touch_shortcut(c.peer, id);
      return messaging_.on_data(std::move(frame));
    case FrameType::RelayList:
      return relay_.on_relay_list(id, frame);
    case FrameType::Undeliverable:
      return relay_.on_undeliverable_notice(frame);
    case FrameType::Start:
      return on_start();
    case FrameType::PeerUnreachable:
      // The peer's connect to us failed: stop waiting for it; routes go around.
      if (!overlay_.static_conns_.count(frame.src)) overlay_.static_peer_failed(frame.src);
      return;
    case FrameType::Shutdown:
      return on_shutdown();
    case FrameType::Release:
      return on_release();
    case FrameType::Goodbye:
      return shortcuts_.on_goodbye(id, wire::goodbye_reason(frame));
    default:
      return reject(id, std::string("unexpected ") + wire::to_string(frame.type) + " frame");
  }
}

void Node::on_hello(ConnId id, const wire::Frame& frame) {
  Conn& c = conns_.at(id);
  auto msg = wire::read_hello(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  const auto& hello = std::get<wire::HelloMsg>(msg);
  if (c.outgoing) return;  // the acceptor does not greet back: nothing to learn
  if (c.up) return reject(id, "second hello");
  if (hello.rank < 0 || hello.rank >= n_) return reject(id, "hello from unknown rank");
  if (hello.rank == rank_) return reject(id, "hello claims this node's own rank");
  if (hello.purpose == wire::ConnPurpose::Relay) return reject(id, "relay attach sent to a node");
  // A collector orders RTTs during inference only (node_collector.cpp).
  if (hello.purpose == wire::ConnPurpose::Collect && phase_ != Phase::AwaitGroups)
    return reject(id, "collect connection outside inference");
  c.peer = hello.rank;
  c.purpose = hello.purpose;
  c.up = true;
  if (c.purpose == wire::ConnPurpose::Static || c.purpose == wire::ConnPurpose::Shortcut)
    windows_.size_window(id, c.peer);
  if (c.purpose == wire::ConnPurpose::Static) overlay_.static_peer_up(c.peer, id);
  if (c.purpose == wire::ConnPurpose::Shortcut) shortcuts_.shortcut_up(c.peer, id, false);
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
