#include "node/node.hpp"

#include "tsunagi/model/roles.hpp"
#include "wire/rank_checks.hpp"

namespace tsunagi {
namespace {
constexpr const char* kClosedUnproven = "closed before proving the run's secret";
}  // namespace

std::unique_ptr<Process> make_node() {
  return std::make_unique<Node>();
}

void Node::handle(Input& input) {
  now_ = input.now;
  if (phase_ == Phase::Exited) return;
  std::visit(
      [this](const auto& ev) {
        using T = std::decay_t<decltype(ev)>;
        if constexpr (std::is_same_v<T, StartedInput>)
          on_started(ev);
        else if constexpr (std::is_same_v<T, ConnectedInput>)
          on_connected(ev.conn);
        else if constexpr (std::is_same_v<T, AcceptedInput>)
          on_accepted(ev.conn);
        else if constexpr (std::is_same_v<T, ConnectFailedInput>)
          on_connect_failed(ev);
        else if constexpr (std::is_same_v<T, ReceivedInput>)
          on_received(ev);
        else if constexpr (std::is_same_v<T, ClosedInput>)
          on_closed(ev.conn);
        else if constexpr (std::is_same_v<T, TimerFiredInput>)
          on_timer(ev.timer);
        else if constexpr (std::is_same_v<T, RttMeasuredInput>)
          take_echo_step(rtt_sampler_.on_echo(ev, now_));
        else if constexpr (std::is_same_v<T, ThroughputMeasuredInput>) {
          if (ev.probe & kWindowProbeBit) return on_window_throughput(ev);
          if (ev.probe & kWorkloadProbeBit) return on_workload_throughput(ev);
          on_throughput(ev);
        } else if constexpr (std::is_same_v<T, ComputeDoneInput>) {
          if (ev.task == kCpuTaskBit) return on_cpu_done();
          if (workload_) workload_->on_compute_done(*this, ev.task);
        }
      },
      input.event);
}

void Node::on_started(const StartedInput& in) {
  rank_ = in.rank;
  self_ = in.self;
  host_ = in.host;
  site_ = in.site;
  config_ = in.config;
  key_ = auth::RunKey(in.secret, in.nonce_seed);
  n_ = config_->processes;
  shortcuts_ = ShortcutCache(config_->overlay.shortcut_capacity);
  rtt_sampler_.set_policy({config_->inference.rtt_timeout, config_->inference.rtt_lost_limit});
  phase_ = Phase::Registering;
  rendezvous_at_ = in.rendezvous;
  started_at_ = now_;
  connect_to_rendezvous();
}

ConnId Node::open_connection(const Endpoint& to, Rank peer, wire::ConnPurpose purpose) {
  ConnId id = next_conn_++;
  Conn& c = conns_[id];
  c.peer = peer;
  c.purpose = purpose;
  c.outgoing = true;
  // Window scaling is agreed in the handshake: the buffers are sized before the connect.
  if (purpose == wire::ConnPurpose::Static || purpose == wire::ConnPurpose::Shortcut)
    size_window(id, peer);
  auth::begin_initiator(c.auth, key_);
  emit(ConnectCmd{id, to});
  if (auto timer = connect_deadlines_.add(id, now_ + config_->overlay.connect_timeout))
    emit(*timer);
  // The hello is queued like any frame and goes out first once connected.
  send_frame(id, wire::make_hello({rank_, purpose}));
  return id;
}

void Node::send_frame(ConnId id, const wire::Frame& frame) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  for (SendCmd& cmd : wire::send_or_queue(it->second, id, frame, key_)) emit(std::move(cmd));
}

void Node::on_connected(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn& c = it->second;
  connect_deadlines_.settle(id);
  for (SendCmd& cmd : wire::mark_connected(c)) emit(std::move(cmd));
  // Connects are paced by TCP (the next static connect may start); the peer is up only once it
  // has proven the run's secret, which it must do by the initiator's handshake deadline.
  static_connect_settled(c);
  if (c.auth.open()) return on_outgoing_open(id);  // the run does not authenticate
  if (auto timer = connect_deadlines_.add(id, now_ + wire::kInitiatorHandshakeTimeout))
    emit(*timer);
}

// An outgoing connection is up: connected, and its acceptor proved the run's secret. Before
// issue 29 static peers, shortcuts and relays counted as up at the TCP connect, so a silent
// listener on a peer's port passed for the peer.
void Node::on_outgoing_open(ConnId id) {
  connect_deadlines_.settle(id);
  Conn& c = conns_.at(id);
  if (c.purpose == wire::ConnPurpose::Static) static_peer_up(c.peer, id);
  if (c.purpose == wire::ConnPurpose::Shortcut) shortcut_up(c.peer, id, true);
  if (c.purpose == wire::ConnPurpose::Relay) relay_up(id);
  if (c.purpose == wire::ConnPurpose::Collect) collect_conn_open(c.peer);
}

// Besides the connect deadlines, only workloads arm timers.
void Node::on_timer(std::uint64_t timer) {
  if (timer == kRegisterRetryTimer) return connect_to_rendezvous();
  if (wire::ConnectDeadlines::is_deadline_timer(timer)) {
    const auto give_up = [this](ConnId id) {
      const Conn& c = conns_.at(id);
      const bool silent = c.up;  // connected: the acceptor never proved the secret
      if (silent) trace("handshake_timed_out", {{"peer", c.peer}});
      emit(CloseCmd{id, silent});
      on_connect_failed({id, ConnectFailure::TimedOut}, silent ? wire::kSilentAcceptorReason : "");
    };
    const auto unproven = [this](ConnId id) { reject(id, wire::kUnprovenReason); };
    if (auto next = connect_deadlines_.expire(timer, now_, conns_, give_up, unproven)) emit(*next);
    return;
  }
  if (workload_) workload_->on_timer(*this, timer);
}

void Node::on_accepted(ConnId id) {
  Conn& c = conns_[id];
  c.outgoing = false;
  if (auto challenge = auth::begin_acceptor(c.auth, key_))
    emit(SendCmd{id, wire::encode(*challenge), 0});
  if (auto timer = wire::watch_handshake(connect_deadlines_, key_, id, now_)) emit(*timer);
}

void Node::on_connect_failed(const ConnectFailedInput& in, const std::string& why) {
  connect_deadlines_.settle(in.conn);
  auto it = conns_.find(in.conn);
  if (it == conns_.end()) return;
  Conn c = std::move(it->second);
  conns_.erase(it);
  release_window(c);
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
    static_peer_failed(c.peer);
    if (!c.up) static_connect_settled(c);  // a connected one was settled at its connect
  }
  if (c.purpose == wire::ConnPurpose::Shortcut) shortcut_pending_.erase(c.peer);
  if (c.purpose == wire::ConnPurpose::Relay) relay_gone(in.conn, "relay_attach_failed");
  if (c.purpose == wire::ConnPurpose::Collect && c.outgoing)
    collector_failed(c.peer, why.empty() ? reasons[static_cast<int>(in.reason)] : why);
}

void Node::on_received(ReceivedInput in) {
  auto bad = wire::drain_frames(conns_, in,
                                [this](ConnId id, wire::Frame f) { on_frame(id, std::move(f)); });
  if (bad) reject(in.conn, *bad);
}

void Node::reject(ConnId id, const std::string& reason) {
  ++counters_.frames_rejected;
  auto it = conns_.find(id);
  Rank peer = it == conns_.end() ? kNoRank : it->second.peer;
  trace("frame_rejected", {{"peer", peer}, {"reason", reason}});
  const bool unproven = it != conns_.end() && !it->second.auth.open();
  if (unproven && it->second.outgoing) {
    // Our own connection, to something that is not of the run: the peer was never up, so this
    // is a failed connect (reported, routed around), not a lost link.
    emit(CloseCmd{id, true});
    return on_connect_failed({id, ConnectFailure::Refused}, reason);
  }
  // Closing looks the same to us as the peer closing: reuse that path, then tell the backend.
  on_closed(id);
  emit(CloseCmd{id, unproven});
}

void Node::on_frame(ConnId id, wire::Frame frame) {
  using wire::FrameType;
  Conn& c = conns_.at(id);
  const bool opening = c.outgoing && !c.auth.open();
  wire::Admitted admitted = wire::admit(c, id, frame, key_);
  for (SendCmd& cmd : admitted.send) emit(std::move(cmd));
  if (admitted.reject) return reject(id, *admitted.reject);
  // The acceptor's proof checked out. That frame (auth_accept) is the handshake's, never the
  // role's; opening may retire the connection (a duplicate shortcut), so nothing follows.
  if (opening && c.auth.open()) return on_outgoing_open(id);
  if (!admitted.deliver) return;
  if (frame.type == FrameType::Hello) return on_hello(id, frame);
  if (!c.up) return reject(id, "frame before hello");
  if (auto why = refusal(id, c, frame)) return reject(id, *why);
  switch (frame.type) {
    case FrameType::Directory: {
      auto msg = wire::read_directory(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      return on_directory(std::get<wire::DirectoryMsg>(std::move(msg)));
    }
    case FrameType::GroupsMsg: {
      auto msg = wire::read_groups(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      auto& body = std::get<wire::GroupsMsgBody>(msg);
      for (const auto& group : body.groups)
        if (auto why = wire::unknown_rank_in(group, n_, "group member")) return reject(id, *why);
      if (auto why = placement_refusal(body)) return reject(id, *why);
      return on_groups(std::move(body));
    }
    case FrameType::ProbeOrder: {
      auto msg = wire::read_probe_order(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      return on_probe_order(std::get<wire::ProbeOrderMsg>(msg));
    }
    case FrameType::RttOrder: {
      auto msg = wire::read_rtt_order(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      auto& order = std::get<wire::RttOrderMsg>(msg);
      if (auto why = wire::unknown_rank_in(order.targets, n_, "rtt order target"))
        return reject(id, *why);
      return on_rtt_order(std::move(order), id);
    }
    case FrameType::RttColumn: {
      auto msg = wire::read_rtt_column(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      const auto& column = std::get<wire::RttColumnMsg>(msg);
      if (auto why = wire::unknown_rank_in(column.peers, n_, "measured")) return reject(id, *why);
      return on_collect_answer(c.peer, column);
    }
    case FrameType::WindowOrder: {
      auto msg = wire::read_window_order(frame);
      if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
      const auto& order = std::get<wire::WindowOrderMsg>(msg);
      if (auto why = wire::unknown_rank_in(order.ranks, n_, "window rank")) return reject(id, *why);
      return on_window_order(order);
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
      return on_route_round(c.peer, frame);
    case FrameType::Data:
      if (c.purpose == wire::ConnPurpose::Shortcut) touch_shortcut(c.peer, id);
      return on_data(std::move(frame));
    case FrameType::RelayList:
      return on_relay_list(id, frame);
    case FrameType::Undeliverable:
      return on_undeliverable_notice(frame);
    case FrameType::Start:
      return on_start();
    case FrameType::PeerUnreachable:
      // The peer's connect to us failed: stop waiting for it; routes go around.
      if (!static_conns_.count(frame.src)) static_peer_failed(frame.src);
      return;
    case FrameType::Shutdown:
      return on_shutdown();
    case FrameType::Release:
      return on_release();
    case FrameType::Goodbye:
      return on_goodbye(id, wire::goodbye_reason(frame));
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
    size_window(id, c.peer);
  if (c.purpose == wire::ConnPurpose::Static) static_peer_up(c.peer, id);
  if (c.purpose == wire::ConnPurpose::Shortcut) shortcut_up(c.peer, id, false);
}

void Node::close_connection(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  forget_counts(it->second);
  conns_.erase(it);
  emit(CloseCmd{id});
}

void Node::on_closed(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  if (phase_ == Phase::Leaving) {  // peers leave as they get their release: nothing to decide
    conns_.erase(it);
    return;
  }
  // Ours, closed before the acceptor proved itself: it never was up, the connect failed.
  if (it->second.outgoing && !it->second.auth.open())
    return on_connect_failed({id, ConnectFailure::Refused}, kClosedUnproven);
  Rank peer = it->second.peer;
  auto purpose = it->second.purpose;
  forget_counts(it->second);
  conns_.erase(it);
  if (purpose == wire::ConnPurpose::Relay) return relay_gone(id, "relay_lost");
  if (purpose == wire::ConnPurpose::Collect) {
    // Ours: a leader gone before its row came; theirs: the collector is done with us.
    const auto ours = collect_conns_.find(peer);
    if (ours != collect_conns_.end() && ours->second == id) collector_failed(peer, "closed");
    return;
  }
  if (purpose == wire::ConnPurpose::Shortcut) {
    auto held = shortcuts_.find(peer);
    if (held && *held == id) {
      shortcuts_.erase(peer);
      trace("shortcut_lost", {{"peer", peer}});
    }
  } else if (purpose == wire::ConnPurpose::Static) {
    static_conns_.erase(peer);
    trace("static_connection_lost", {{"peer", peer}});
    if (routes_) {
      routes_->drop_neighbor(peer);
      pump_routing();
    } else {
      static_peer_failed(peer);
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
  if (config_->costs.connect > 0) charge(CpuJob::Kind::Pay, config_->costs.connect);
}

void Node::forget_counts(Conn& c) {
  release_window(c);
  if (c.counted) --counters_.open_data_connections;
  if (c.closing) --counters_.closing_connections;
}

void Node::trace(const char* kind, nlohmann::json detail) {
  emit(TraceCmd{kind, std::move(detail)});
}

}  // namespace tsunagi
