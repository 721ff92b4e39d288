// Application messages over the overlay: direct when a connection to the destination exists,
// otherwise hop by hop along the routes; a relayed send opens a shortcut (paper 000 §3.2).
#include "node/node.hpp"

namespace tsunagi {

std::optional<ConnId> Node::direct_conn(Rank peer) {
  // A held shortcut whose connection is gone or closing waits for the pair's other one.
  if (auto sc = shortcuts_.find(peer)) {
    const auto it = conns_.find(*sc);
    if (it != conns_.end() && !it->second.closing) return sc;
  }
  auto it = static_conns_.find(peer);
  if (it != static_conns_.end()) return it->second;
  return std::nullopt;
}

void Node::send(Rank dst, std::uint32_t tag, Bytes body, std::uint64_t filler) {
  ++counters_.messages_sent;
  wire::Frame frame = wire::make_data(rank_, dst, data_seq_++, {tag, std::move(body)}, filler);
  if (config_->costs.any()) return charge(CpuJob::Kind::Send, message_cost(), std::move(frame));
  originate(std::move(frame));
}

void Node::originate(wire::Frame frame) {
  const Rank dst = frame.dst;
  if (dst == rank_) {
    on_data(std::move(frame));
    return;
  }
  if (auto conn = direct_conn(dst)) {
    if (shortcuts_.contains(dst)) shortcuts_.touch(dst);
    send_frame(*conn, frame);
    return;
  }
  const bool other_site = relay_plan() && !in_own_site(dst);
  forward(std::move(frame));
  if (!other_site) maybe_open_shortcut(dst);  // no shortcuts through firewalls: relays do that
}

void Node::forward(wire::Frame frame) {
  if (relay_plan() && !in_own_site(frame.dst)) return send_via_relay(std::move(frame));
  if (direct_routing()) return undeliverable(frame, "no connection");
  if (!routes_ready()) {
    waiting_frames_.push_back(std::move(frame));  // routes are still being built
    return;
  }
  Rank next = next_hop(frame.dst);
  auto it = next == kNoRank ? static_conns_.end() : static_conns_.find(next);
  if (it == static_conns_.end()) return undeliverable(frame, "no route");
  send_frame(it->second, frame);
}

// Counted and traced; when the frame is this rank's own message its workload hears of it.
void Node::undeliverable(const wire::Frame& frame, const std::string& reason) {
  ++counters_.messages_undeliverable;
  trace("undeliverable", {{"src", frame.src}, {"dst", frame.dst}, {"reason", reason}});
  if (frame.src != rank_ || frame.type != wire::FrameType::Data || !workload_) return;
  auto msg = wire::read_data(frame);
  if (auto* data = std::get_if<wire::DataMsg>(&msg))
    workload_->on_undeliverable(*this, frame.dst, data->tag, reason);
}

void Node::flush_waiting_frames() {
  auto frames = std::move(waiting_frames_);
  waiting_frames_.clear();
  for (auto& f : frames) forward(std::move(f));
}

void Node::on_data(wire::Frame frame) {
  auto msg = wire::read_data(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) {
    ++counters_.frames_rejected;
    trace("frame_rejected", {{"peer", frame.src}, {"reason", e->reason}});
    return;
  }
  const bool costs = config_->costs.any();
  if (frame.dst != rank_) {
    if (!costs) return relay_frame(std::move(frame));
    return charge(CpuJob::Kind::Relay, config_->costs.relay + message_cost(), std::move(frame));
  }
  if (!workload_) {
    early_data_.push_back(std::move(frame));
    return;
  }
  if (costs) return charge(CpuJob::Kind::Deliver, message_cost(), std::move(frame));
  ++counters_.messages_delivered;
  auto& data = std::get<wire::DataMsg>(msg);
  workload_->on_message(*this, frame.src, data.tag, data.body, frame.filler);
}

// Relay: the TTL bounds how long a frame can wander if routes ever disagree.
void Node::relay_frame(wire::Frame frame) {
  if (frame.ttl <= 1) return undeliverable(frame, "ttl expired");
  --frame.ttl;
  ++frame.hops;
  ++counters_.messages_relayed;
  if (auto conn = direct_conn(frame.dst)) {
    send_frame(*conn, frame);
  } else {
    forward(std::move(frame));
  }
}

// A frame already checked by on_data, after the CPU queue.
void Node::deliver(wire::Frame frame) {
  auto msg = wire::read_data(frame);
  auto* data = std::get_if<wire::DataMsg>(&msg);
  if (data == nullptr || !workload_) return;
  ++counters_.messages_delivered;
  workload_->on_message(*this, frame.src, data->tag, data->body, frame.filler);
}

// A shortcut takes a cache slot from the moment it is opened, so a burst of relayed sends cannot
// open more connections than the cache holds. With every slot taken, the least recently used
// established shortcut makes room; if all slots are still connecting, the message just stays
// relayed (paper 000 §3.2 bounds the number of shortcuts; it does not say what a burst does).
void Node::maybe_open_shortcut(Rank peer) {
  const auto capacity = static_cast<std::size_t>(shortcuts_.capacity());
  if (capacity == 0 || shortcut_pending_.count(peer) || shortcuts_.contains(peer)) return;
  if (shortcuts_.size() + shortcut_pending_.size() >= capacity) {
    if (shortcuts_.size() == 0) return;  // every slot is still connecting
    evict_lru_shortcut();
  }
  shortcut_pending_.insert(peer);
  if (!have_endpoints({peer})) {
    shortcuts_awaiting_endpoints_.push_back(peer);
    return;
  }
  open_connection(*endpoints_.find(peer), peer, wire::ConnPurpose::Shortcut);
}

// Both ends may open a shortcut to each other at once; the pair keeps exactly one: the
// connection its lower rank opened, whichever comes up first at either end (a race of the
// network). The other is retired at both ends. The trace says only that the pair has a shortcut
// (shortcut_up), once, so the outcome of the race does not show in the decisions.
//
// A shortcut a faster peer opened before our own routes were done waits until they are: only
// then do we know whether the peer is a static neighbour, and the decision lands after our
// plan and routes on every backend, whichever arrived first (the hierarchical plan sends the
// ranks their placements one by one, so a peer near the root may run long before we start).
void Node::shortcut_up(Rank peer, ConnId id, bool initiated) {
  if (!initiated && phase_ < Phase::Running) {
    early_shortcuts_.emplace_back(peer, id);
    return;
  }
  if (initiated) shortcut_pending_.erase(peer);
  constexpr auto kDuplicate = wire::GoodbyeReason::Duplicate;
  if (static_conns_.count(peer) || shortcuts_.capacity() == 0)
    return retire_shortcut(id, kDuplicate);
  if (auto held = shortcuts_.find(peer)) {
    const auto it = conns_.find(*held);
    const bool usable = it != conns_.end() && !it->second.closing;
    // Two openers raced: the lower rank's connection is the pair's. A held entry without a
    // usable connection waits for exactly this one; one opened by the same end is older.
    const bool race = usable && it->second.outgoing != initiated;
    if (race && initiated != (rank_ < peer)) return retire_shortcut(id, kDuplicate);
    const ConnId older = *held;
    shortcuts_.replace(peer, id);
    retire_shortcut(older, kDuplicate);  // first, so the pair never counts twice
    return count_open(id);
  }
  // Our own connection to a higher rank is on its way and will be the pair's shortcut.
  if (!initiated && rank_ < peer && shortcut_pending_.count(peer))
    return retire_shortcut(id, kDuplicate);
  hold_shortcut(peer, id, initiated);
}

// A new shortcut for the pair: room is made before it is traced, as when it is opened. The
// counters keep the direction; the trace does not (see shortcut_up).
void Node::hold_shortcut(Rank peer, ConnId id, bool initiated) {
  ++(initiated ? counters_.shortcuts_opened : counters_.shortcuts_accepted);
  if (shortcuts_.size() >= static_cast<std::size_t>(shortcuts_.capacity())) evict_lru_shortcut();
  trace("shortcut_up", {{"peer", peer}});
  shortcuts_.insert(peer, id);
  count_open(id);
}

void Node::evict_lru_shortcut() {
  auto order = shortcuts_.peers_lru_order();
  if (order.empty()) return;
  Rank victim = order.front();
  ConnId victim_conn = *shortcuts_.find(victim);
  shortcuts_.erase(victim);
  ++counters_.shortcuts_evicted;
  trace("shortcut_evicted", {{"peer", victim}});
  retire_shortcut(victim_conn);
}

// Closing a connection the peer may be sending on would lose its frames in flight (a real
// TCP peer gets a reset). So eviction is a handshake: we say goodbye and only receive; the peer
// stops using the connection, answers goodbye and closes; frames before its answer still arrive.
// From the goodbye on, the connection counts as closing, not as in use.
void Node::retire_shortcut(ConnId id, wire::GoodbyeReason reason) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.closing) return;
  Conn& c = it->second;
  if (c.counted) --counters_.open_data_connections;
  c.counted = false;
  c.closing = true;
  ++counters_.closing_connections;
  counters_.max_closing_connections =
      std::max(counters_.max_closing_connections, counters_.closing_connections);
  send_frame(id, wire::make_goodbye(reason));
}

// The peer retires a shortcut connection. Evicted: the pair's shortcut is gone. Duplicate: the
// peer keeps the pair's other connection (opened by the lower rank), which is on its way here;
// the cache entry stays, unusable, and takes that connection when it comes up, so the trace is
// the same whichever arrives first.
void Node::on_goodbye(ConnId id, wire::GoodbyeReason reason) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  if (!it->second.closing) {
    Rank peer = it->second.peer;
    auto held = shortcuts_.find(peer);
    if (held && *held == id && reason == wire::GoodbyeReason::Evicted) {
      shortcuts_.erase(peer);
      trace("shortcut_closed_by_peer", {{"peer", peer}});
    }
    send_frame(id, wire::make_goodbye(reason));
  }
  close_connection(id);
}

void Node::touch_shortcut(Rank peer, ConnId id) {
  auto held = shortcuts_.find(peer);
  if (held && *held == id) shortcuts_.touch(peer);
}

void Node::on_shutdown() {
  if (phase_ == Phase::Leaving) return;
  if (workload_) workload_->on_shutdown(*this);
  nlohmann::json peers = nlohmann::json::array();  // WAN runs only: who crosses which router
  if (!site_.empty())
    for (const auto& [peer, id] : static_conns_) peers.push_back(peer);
  nlohmann::json node_report = {{"rank", rank_},
                                {"peers", std::move(peers)},
                                {"messages_sent", counters_.messages_sent},
                                {"messages_delivered", counters_.messages_delivered},
                                {"messages_relayed", counters_.messages_relayed},
                                {"messages_undeliverable", counters_.messages_undeliverable},
                                {"frames_rejected", counters_.frames_rejected},
                                {"static_connections", static_conns_.size()},
                                {"settled_ns", settled_at_},
                                {"max_connections", counters_.max_data_connections},
                                {"max_closing_connections", counters_.max_closing_connections},
                                {"shortcuts_opened", counters_.shortcuts_opened},
                                {"shortcuts_accepted", counters_.shortcuts_accepted},
                                {"shortcuts_evicted", counters_.shortcuts_evicted},
                                {"rtt_probes", counters_.rtt_probes}};
  report_windows(node_report);
  report("node", std::move(node_report));
  phase_ = Phase::Leaving;
  send_frame(rendezvous_conn_, wire::make_shutdown_ack());
}

// Everyone has acknowledged the shutdown, so no peer will read a lost connection as news.
void Node::on_release() {
  if (phase_ != Phase::Leaving) return;
  phase_ = Phase::Exited;
  emit(ExitCmd{true, "", true});
}

void Node::compute(std::uint64_t task, TimeNs duration) {
  emit(ComputeCmd{task, duration});
}

void Node::report(const std::string& key, nlohmann::json value) {
  emit(ReportCmd{key, std::move(value)});
}

void Node::finished() {
  if (workload_finished_) return;
  workload_finished_ = true;
  send_frame(rendezvous_conn_, wire::make_done(rank_));
}

}  // namespace tsunagi
