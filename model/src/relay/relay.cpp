// The relay role, part one: connection plumbing, registration with the rendezvous, and the
// relay-to-relay links (docs/relay.md). Forwarding and link state: relay_forwarding.cpp.
#include "relay/relay.hpp"

#include <algorithm>

#include "tsunagi/model/roles.hpp"
#include "wire/rank_checks.hpp"

namespace tsunagi {

std::unique_ptr<Process> make_relay() {
  return std::make_unique<Relay>();
}

void Relay::handle(Input& input) {
  now_ = input.now;
  if (exited_) return;
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
      },
      input.event);
}

void Relay::on_started(const StartedInput& in) {
  label_ = in.host;
  site_ = in.site;
  self_ = in.self;
  config_ = in.config;
  key_ = auth::RunKey(in.secret, in.nonce_seed);
  if (config_->overlay.plan != PlanKind::Relay) {
    // Scenarios place relays; only the relay plan uses them. Leave quietly otherwise.
    exited_ = true;
    emit(ExitCmd{true, ""});
    return;
  }
  rendezvous_conn_ = open(in.rendezvous);
  conns_[rendezvous_conn_].kind = PeerKind::Rendezvous;
  send_frame(rendezvous_conn_, wire::make_relay_register({{label_, site_, self_}}));
}

ConnId Relay::open(const Endpoint& to) {
  const ConnId id = next_conn_++;
  conns_[id].outgoing = true;
  auth::begin_initiator(conns_[id].auth, key_);
  emit(ConnectCmd{id, to});
  if (auto timer = connect_deadlines_.add(id, now_ + config_->overlay.connect_timeout))
    emit(*timer);
  return id;
}

// A relay arms only connect and handshake deadlines.
void Relay::on_timer(std::uint64_t timer) {
  if (!wire::ConnectDeadlines::is_deadline_timer(timer)) return;
  const auto give_up = [this](ConnId id) {
    const bool silent = conns_.at(id).up;  // connected: the acceptor never proved the secret
    if (silent) trace("handshake_timed_out", {});
    emit(CloseCmd{id, silent});
    on_connect_failed({id, ConnectFailure::TimedOut}, silent ? wire::kSilentAcceptorReason : "");
  };
  const auto unproven = [this](ConnId id) { reject(id, wire::kUnprovenReason); };
  if (auto next = connect_deadlines_.expire(timer, now_, conns_, give_up, unproven)) emit(*next);
}

void Relay::send_frame(ConnId id, const wire::Frame& frame) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  for (SendCmd& cmd : wire::send_or_queue(it->second, id, frame, key_)) emit(std::move(cmd));
}

void Relay::on_accepted(ConnId id) {
  Conn& c = conns_[id];
  c.up = true;
  if (auto challenge = auth::begin_acceptor(c.auth, key_))
    emit(SendCmd{id, wire::encode(*challenge), 0});
  if (auto timer = wire::watch_handshake(connect_deadlines_, key_, id, now_)) emit(*timer);
}

void Relay::on_connected(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn& c = it->second;
  connect_deadlines_.settle(id);
  for (SendCmd& cmd : wire::mark_connected(c)) emit(std::move(cmd));
  if (c.auth.open()) return on_outgoing_open(id);  // the run does not authenticate
  // Up only once the acceptor has proven the run's secret, by the initiator's deadline.
  if (auto timer = connect_deadlines_.add(id, now_ + wire::kInitiatorHandshakeTimeout))
    emit(*timer);
}

void Relay::on_outgoing_open(ConnId id) {
  connect_deadlines_.settle(id);
  if (conns_.at(id).kind != PeerKind::Relay) return;
  --attempts_open_;
  link_up(id);
  advertise();
}

void Relay::on_connect_failed(const ConnectFailedInput& in, const std::string& why) {
  connect_deadlines_.settle(in.conn);
  auto it = conns_.find(in.conn);
  if (it == conns_.end()) return;
  const Conn c = std::move(it->second);
  conns_.erase(it);
  if (in.conn == rendezvous_conn_) {
    exited_ = true;
    emit(ExitCmd{false, "cannot reach the rendezvous" + (why.empty() ? "" : ": " + why)});
    return;
  }
  if (c.kind != PeerKind::Relay) return;
  // Refused or timed out: a firewall or NAT between us. Other relays may bridge it.
  unreachable_.insert(c.relay);
  --attempts_open_;
  if (attempts_open_ == 0) advertise();
}

void Relay::on_received(const ReceivedInput& in) {
  auto bad = wire::drain_frames(conns_, in,
                                [this](ConnId id, wire::Frame f) { on_frame(id, std::move(f)); });
  if (bad) reject(in.conn, *bad);
}

void Relay::reject(ConnId id, const std::string& reason) {
  trace("frame_rejected", {{"reason", reason}});
  auto it = conns_.find(id);
  const bool unproven = it != conns_.end() && !it->second.auth.open();
  if (unproven && it->second.outgoing) {
    // Our own connection, to something that is not of the run: a failed connect.
    emit(CloseCmd{id, true});
    return on_connect_failed({id, ConnectFailure::Refused}, reason);
  }
  on_closed(id);
  emit(CloseCmd{id, unproven});
}

void Relay::on_closed(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  if (leaving_) {  // after our shutdown ack: everyone is leaving, nothing changes routes
    conns_.erase(it);
    return;
  }
  // Ours, closed before the acceptor proved itself: it never was up, the connect failed.
  if (it->second.outgoing && !it->second.auth.open())
    return on_connect_failed({id, ConnectFailure::Refused},
                             "closed before proving the run's secret");
  const Conn c = std::move(it->second);
  conns_.erase(it);
  switch (c.kind) {
    case PeerKind::Rendezvous:
      exited_ = true;
      emit(ExitCmd{false, "the rendezvous closed its connection before shutdown"});
      return;
    case PeerKind::Node: {
      auto at = attached_.find(c.rank);
      if (at != attached_.end() && at->second == id) attached_.erase(at);
      return advertise();
    }
    case PeerKind::Relay: {
      if (c.outgoing && !c.up) {  // closed while connecting: an attempt that failed
        --attempts_open_;
        return advertise();
      }
      auto link = links_.find(c.relay);
      if (link == links_.end()) return;
      std::erase(link->second, id);
      if (!link->second.empty()) return;  // another connection to that relay still carries it
      links_.erase(link);
      return advertise();
    }
    case PeerKind::Unknown:
      return;
  }
}

void Relay::on_frame(ConnId id, wire::Frame frame) {
  using wire::FrameType;
  Conn& c = conns_.at(id);
  const bool opening = c.outgoing && !c.auth.open();
  wire::Admitted admitted = wire::admit(c, id, frame, key_);
  for (SendCmd& cmd : admitted.send) emit(std::move(cmd));
  if (admitted.reject) return reject(id, *admitted.reject);
  // The acceptor's proof (auth_accept, the handshake's frame) checked out: the link is up.
  if (opening && c.auth.open()) return on_outgoing_open(id);
  if (!admitted.deliver) return;
  if (c.kind == PeerKind::Unknown) return on_first_frame(id, frame);
  const bool carries_data = frame.type == FrameType::Data || frame.type == FrameType::Undeliverable;
  if (carries_data) {
    // Forwarding and the undeliverable notice look these ranks up and send back to them.
    const int n = config_->processes;
    if (auto why = wire::unknown_rank(frame.src, n, "source")) return reject(id, *why);
    if (auto why = wire::unknown_rank(frame.dst, n, "destination")) return reject(id, *why);
  }
  switch (c.kind) {
    case PeerKind::Rendezvous:
      if (frame.type == FrameType::Shutdown) return on_shutdown();
      if (frame.type == FrameType::Release) return on_release();
      if (frame.type == FrameType::RelayList) {
        auto msg = wire::read_relay_list(frame);
        if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
        const auto& list = std::get<wire::RelayListMsg>(msg);
        // A rank that is no process would never attach, and the relay would never settle.
        if (auto why = wire::unknown_rank_in(list.expected, config_->processes, "expected"))
          return reject(id, *why);
        return on_relay_list(list);
      }
      break;
    case PeerKind::Relay:
      if (frame.type == FrameType::LinkAdvert) return on_advert(id, frame);
      if (carries_data) return route(std::move(frame));
      break;
    case PeerKind::Node:
      if (carries_data) return route(std::move(frame));
      break;
    case PeerKind::Unknown:
      break;
  }
  reject(id, std::string("unexpected ") + wire::to_string(frame.type) + " frame");
}

// An accepted connection says what it is with its first frame: a node attaching (hello with
// purpose relay) or another relay (relay hello).
void Relay::on_first_frame(ConnId id, const wire::Frame& frame) {
  Conn& c = conns_.at(id);
  if (frame.type == wire::FrameType::RelayHello) {
    auto msg = wire::read_relay_hello(frame);
    if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
    c.kind = PeerKind::Relay;
    c.relay = std::get<wire::RelayHelloMsg>(msg).label;
    if (c.relay == label_) return reject(id, "relay hello with our own label");
    // Once the run's relays are known, only they may link to us.
    if (have_list_ && std::none_of(relays_.begin(), relays_.end(),
                                   [&](const auto& r) { return r.label == c.relay; }))
      return reject(id, "relay hello from " + c.relay + ", which is not a relay of this run");
    link_up(id);
    return advertise();
  }
  if (frame.type != wire::FrameType::Hello) return reject(id, "expected a hello first");
  auto msg = wire::read_hello(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  const auto& hello = std::get<wire::HelloMsg>(msg);
  if (hello.purpose != wire::ConnPurpose::Relay) return reject(id, "a node connected for no relay");
  if (hello.rank < 0 || hello.rank >= config_->processes)
    return reject(id, "hello from unknown rank");
  c.kind = PeerKind::Node;
  c.rank = hello.rank;
  attached_[hello.rank] = id;
  advertise();
}

// Connect to every other relay; the rendezvous gave each the same list, so both ends of every
// pair try, and whichever connections succeed become links.
void Relay::on_relay_list(const wire::RelayListMsg& list) {
  if (have_list_) return;
  have_list_ = true;
  relays_ = list.relays;
  expected_.insert(list.expected.begin(), list.expected.end());
  for (const wire::RelayEntry& other : relays_) {
    if (other.label == label_) continue;
    const ConnId id = open(other.endpoint);
    Conn& c = conns_[id];
    c.kind = PeerKind::Relay;
    c.relay = other.label;
    ++attempts_open_;
    send_frame(id, wire::make_relay_hello({label_}));
  }
  advertise();
}

// A new link: the neighbour gets everything we know, so a relay that joins late (or whose
// earlier adverts went elsewhere) catches up at once.
void Relay::link_up(ConnId id) {
  const std::string& peer = conns_.at(id).relay;
  auto& ids = links_[peer];
  ids.push_back(id);
  if (ids.size() == 1) send_database(id);
}

}  // namespace tsunagi
