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
  registration_.start(in.rendezvous, now_);
  connect_to_rendezvous();
}

void Relay::connect_to_rendezvous() {
  rendezvous_conn_ = open(registration_.rendezvous());
  conns_[rendezvous_conn_].kind = PeerKind::Rendezvous;
  send_frame(rendezvous_conn_, wire::make_relay_register({{label_, site_, self_}}));
}

// Arms the next attempt; false when the registration deadline leaves no room for one. Relays
// have no rank: the label tells them apart in the draw (FNV-1a, stable on every platform).
bool Relay::retry_rendezvous() {
  if (have_list_) return false;  // registered long ago: this is no registration
  std::uint64_t salt = 14695981039346656037ULL;
  for (unsigned char ch : label_) salt = (salt ^ ch) * 1099511628211ULL;
  std::optional<RegistrationRetry::Retry> retry = registration_.next(*config_, salt, now_);
  if (!retry) return false;
  emit(std::move(retry->trace));
  emit(retry->timer);
  return true;
}

ConnId Relay::open(const Endpoint& to) {
  return open_outgoing(to, config_->overlay.connect_timeout, [](ConnId, Conn&) {});
}

// A relay's own timer: the retried registration. Its connect and handshake deadlines are the
// connection set's (role_connections.hpp).
void Relay::on_timer(std::uint64_t timer) {
  if (timer == RegistrationRetry::kTimer) connect_to_rendezvous();
}

void Relay::handshake_timed_out(const Conn&) {
  trace("handshake_timed_out", {});
}

void Relay::on_outgoing_open(ConnId id) {
  deadlines_.settle(id);
  if (conns_.at(id).kind != PeerKind::Relay) return;
  --attempts_open_;
  link_up(id);
  advertise();
}

void Relay::on_connect_failed(const ConnectFailedInput& in, const std::string& why) {
  const std::optional<Conn> taken = take_failed(in.conn);
  if (!taken) return;
  const Conn& c = *taken;
  if (in.conn == rendezvous_conn_) {
    // Only a connect that never got through is tried again: a listener that fails the
    // handshake is not the run's rendezvous, and waiting will not make it one.
    if (why.empty() && retry_rendezvous()) return;
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

void Relay::reject(ConnId id, const std::string& reason) {
  trace("frame_rejected", {{"reason", reason}});
  drop(id, reason);
}

void Relay::on_closed(ConnId id) {
  // Leaving: after our shutdown ack everyone is leaving, nothing changes routes.
  if (closed_settled(id, leaving_)) return;
  auto it = conns_.find(id);
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
  // The acceptor's proof (auth_accept, the handshake's frame) opens the link (admit).
  if (!admit(id, frame)) return;
  Conn& c = conns_.at(id);
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
