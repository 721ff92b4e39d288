// The rendezvous role, part one: plumbing, registration, the directory, the running phase and
// the end of the run (rendezvous.hpp lists the phases). Inference: rendezvous_inference.cpp.
#include "rendezvous/rendezvous.hpp"

#include "tsunagi/model/roles.hpp"
#include "wire/framed_conn.hpp"

namespace tsunagi {
namespace {
constexpr std::uint64_t kRegistrationTimer = 1;
constexpr std::uint64_t kMissingRelayTimer = 2;
// Once every rank is registered, how long missing relays are waited for: a relay killed before
// it could register is never coming, and the ranks should not wait the whole registration
// timeout for it. Long enough for daemons started a few seconds apart on a real cluster.
constexpr TimeNs kMissingRelayGrace = 5'000'000'000;
}  // namespace

std::unique_ptr<Process> make_rendezvous() {
  return std::make_unique<Rendezvous>();
}

// Its own timers: the registration deadline and the grace for missing relays. The handshake
// deadlines of accepted connections are the connection set's (role_connections.hpp): a
// connection that has not proven the run's secret in time is rejected.
void Rendezvous::on_timer(std::uint64_t timer) {
  if (timer == kRegistrationTimer || timer == kMissingRelayTimer) on_registration_deadline();
}

void Rendezvous::on_started(const StartedInput& in) {
  config_ = in.config;
  key_ = auth::RunKey(in.secret, in.nonce_seed);
  n_ = config_->processes;
  endpoints_.assign(static_cast<std::size_t>(n_), {});
  hosts_.assign(static_cast<std::size_t>(n_), {});
  sites_.assign(static_cast<std::size_t>(n_), {});
  relays_expected_ = config_->overlay.plan == PlanKind::Relay ? config_->relays : 0;
  rank_conn_.assign(static_cast<std::size_t>(n_), 0);
  near_.assign(static_cast<std::size_t>(n_), {});
  reported_.assign(static_cast<std::size_t>(n_), false);
  settled_ranks_.assign(static_cast<std::size_t>(n_), false);
  done_ranks_.assign(static_cast<std::size_t>(n_), false);
  phase_ = Phase::Registering;
  emit(ArmTimerCmd{kRegistrationTimer, now_ + config_->registration_timeout});
}

void Rendezvous::reject(ConnId id, const std::string& reason) {
  emit(TraceCmd{"frame_rejected", {{"peer", conns_[id].rank}, {"reason", reason}}});
  const bool unproven = !conns_[id].auth.open();  // a stranger: its descriptor freed at once
  conns_.erase(id);
  relays_.remove(id);
  emit(CloseCmd{id, unproven});
}

// Refused but kept: a registered rank repeating itself. Closing its connection would end the
// run (process_lost); ignoring the repeat leaves the run as it was.
void Rendezvous::refuse(ConnId id, const std::string& reason) {
  emit(TraceCmd{"frame_rejected", {{"peer", conns_[id].rank}, {"reason", reason}}});
}

void Rendezvous::on_frame(ConnId id, const wire::Frame& frame) {
  if (!admit(id, frame)) return;
  if (auto why = refusal(id, frame)) return reject(id, *why);
  switch (frame.type) {
    case wire::FrameType::Hello:
      return on_hello(id, frame);
    case wire::FrameType::Register:
      return on_register(id, frame);
    case wire::FrameType::RttReport:
      return on_rtt_report(id, frame);
    case wire::FrameType::Done:
      return on_done(id);
    case wire::FrameType::ProbeResult:
      return on_probe_result(id, frame);
    case wire::FrameType::RttColumn:
      return on_rtt_column(id, frame);
    case wire::FrameType::WindowGroups:
      return on_window_groups(id, frame);
    case wire::FrameType::EndpointQuery:
      return on_endpoint_query(id, frame);
    case wire::FrameType::RelayRegister:
      return on_relay_register(id, frame);
    case wire::FrameType::Settled:
      return on_settled(id);
    case wire::FrameType::PeerUnreachable:
      return on_peer_unreachable(id, frame);
    case wire::FrameType::ProbeTurn:
      return on_probe_turn(id, frame);
    case wire::FrameType::ShutdownAck:
      return on_shutdown_ack(id);
    default:
      return reject(id, std::string("unexpected ") + wire::to_string(frame.type) + " frame");
  }
}

// A node greets before it registers; the rank it names is the only one it may register (with
// authentication on, the hello is what its proof covered).
void Rendezvous::on_hello(ConnId id, const wire::Frame& frame) {
  auto msg = wire::read_hello(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  const auto& hello = std::get<wire::HelloMsg>(msg);
  Conn& c = conns_[id];
  if (c.greeted != kNoRank || c.rank != kNoRank) return reject(id, "second hello");
  if (hello.purpose != wire::ConnPurpose::Control)
    return reject(id, "hello to the rendezvous for a purpose other than control");
  if (hello.rank < 0 || hello.rank >= n_) return reject(id, "hello from unknown rank");
  c.greeted = hello.rank;
}

void Rendezvous::on_register(ConnId id, const wire::Frame& frame) {
  auto msg = wire::read_register(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  auto& reg = std::get<wire::RegisterMsg>(msg);
  if (reg.rank >= n_) return reject(id, "rank " + std::to_string(reg.rank) + " >= processes");
  auto slot = static_cast<std::size_t>(reg.rank);
  if (rank_conn_[slot] != 0)
    return reject(id, "rank " + std::to_string(reg.rank) + " registered twice");
  const Rank greeted = conns_[id].greeted;
  if (greeted != kNoRank && greeted != reg.rank)
    return reject(id, "register for rank " + std::to_string(reg.rank) +
                          " on a connection that greeted as rank " + std::to_string(greeted));
  conns_[id].rank = reg.rank;
  rank_conn_[slot] = id;
  endpoints_[slot] = reg.endpoint;
  hosts_[slot] = reg.host;
  sites_[slot] = reg.site;
  ++registered_;
  if (registered_ == n_ && relays_expected_ > 0)
    emit(ArmTimerCmd{kMissingRelayTimer, now_ + kMissingRelayGrace});
  maybe_send_directory();
}

// Relays register like ranks (plan = relay); the run waits for all of them, so every node
// learns every relay of its site and every relay every other relay.
void Rendezvous::on_relay_register(ConnId id, const wire::Frame& frame) {
  auto msg = wire::read_relay_register(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  if (relays_expected_ == 0) return reject(id, "a relay registered but plan is not relay");
  if (auto why = relays_.add(id, std::get<wire::RelayRegisterMsg>(msg).relay))
    return reject(id, *why);
  maybe_send_directory();
}

bool Rendezvous::everyone_registered() const {
  return registered_ == n_ && relays_.size() + relays_lost_ >= relays_expected_;
}

void Rendezvous::maybe_send_directory() {
  if (!everyone_registered() || phase_ != Phase::Registering) return;
  phase_ = Phase::Inferring;
  emit(TraceCmd{"directory", {{"processes", n_}, {"relays", relays_.labels()}}});
  if (relays_expected_ > 0) send_relay_lists();
  // On demand the frame only says "everyone is here"; nodes ask for what they use.
  if (config_->directory == DirectoryMode::OnDemand) {
    broadcast(wire::make_directory({}));
  } else {
    broadcast(wire::make_directory({endpoints_, hosts_}));
  }
}

void Rendezvous::send_relay_lists() {
  for (ConnId id : relays_.conns())
    emit(SendCmd{id, wire::encode(wire::make_relay_list(relays_.for_relay(id, sites_))), 0});
  for (Rank r = 0; r < n_; ++r) {
    const auto slot = static_cast<std::size_t>(r);
    emit(SendCmd{rank_conn_[slot],
                 wire::encode(wire::make_relay_list(relays_.for_rank(r, sites_[slot]))), 0});
  }
}

// The waiting end of a planned pair only learns that the connect towards it failed from here:
// the two cannot talk (that is why it failed).
void Rendezvous::on_peer_unreachable(ConnId id, const wire::Frame& frame) {
  const Rank from = conns_[id].rank;
  if (from == kNoRank || frame.src != from) return reject(id, "peer_unreachable from another rank");
  if (frame.dst < 0 || frame.dst >= n_)
    return reject(id, "peer_unreachable for rank " + std::to_string(frame.dst));
  // A fresh frame, not the one received: only the two ranks are passed on, never a sender's
  // payload, sequence number or filler claim (a forwarded filler claim without its bytes would
  // make the receiver read the next frames as filler).
  emit(SendCmd{rank_conn_[static_cast<std::size_t>(frame.dst)],
               wire::encode(wire::make_peer_unreachable(frame.src, frame.dst)), 0});
}

// window = "auto": a node asks for its turn to measure a peer's path, or says it is done; the
// grant goes to the node whose turn it is (probe_turns.hpp). The sender and the measured rank
// were checked (refusal); a node that asks out of turn is refused and kept, as a repeat.
void Rendezvous::on_probe_turn(ConnId id, const wire::Frame& frame) {
  const Rank from = conns_[id].rank;
  const auto grant = [this](Rank to, Rank target) {
    emit(SendCmd{rank_conn_[static_cast<std::size_t>(to)],
                 wire::encode(wire::make_probe_turn_grant(to, target)), 0});
  };
  if (frame.seq == 0) {
    const ProbeTurns::Asked asked = probe_turns_.ask(from, frame.dst);
    if (asked.refused) return refuse(id, *asked.refused);
    if (asked.granted) grant(from, frame.dst);
    return;
  }
  std::string refused;
  if (auto next = probe_turns_.done(from, frame.dst, &refused)) return grant(*next, frame.dst);
  if (!refused.empty()) refuse(id, refused);
}

// routing = direct: a barrier between connecting and the workload, so no rank sends before
// every connection any peer made towards it exists (docs/relay.md).
void Rendezvous::on_settled(ConnId id) {
  const auto slot = static_cast<std::size_t>(conns_[id].rank);  // registered (refusal)
  if (settled_ranks_[slot]) return refuse(id, "settled twice");
  settled_ranks_[slot] = true;
  if (++settled_ < n_) return;
  emit(TraceCmd{"all_settled", {{"processes", n_}}});
  broadcast(wire::make_start());
}

void Rendezvous::on_endpoint_query(ConnId id, const wire::Frame& frame) {
  auto msg = wire::read_endpoint_query(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) return reject(id, e->reason);
  if (registered_ < n_) return reject(id, "endpoint query before everyone registered");
  // Registered ranks only (refusal): the endpoints are the run's map of where to connect.
  wire::EndpointReplyMsg reply;
  for (Rank r : std::get<wire::EndpointQueryMsg>(msg).ranks) {
    if (r >= n_)
      return reject(id, "endpoint query for rank " + std::to_string(r) + " >= processes");
    reply.ranks.push_back(r);
    reply.endpoints.push_back(endpoints_[static_cast<std::size_t>(r)]);
  }
  emit(SendCmd{id, wire::encode(wire::make_endpoint_reply(reply)), 0});
}

void Rendezvous::on_registration_deadline() {
  if (phase_ != Phase::Registering)
    return;  // everyone came (a relay may have died since: no matter)
  std::vector<Rank> missing;
  for (Rank r = 0; r < n_; ++r) {
    if (rank_conn_[static_cast<std::size_t>(r)] == 0) missing.push_back(r);
  }
  const int relays_missing = relays_expected_ - relays_.size() - relays_lost_;
  if (missing.empty()) {
    // Every rank is here; a relay is not (it died before it could register): the run goes on
    // with the relays there are, which route around the missing one as around a dead one.
    emit(TraceCmd{"relays_missing", {{"relays_missing", relays_missing}}});
    relays_lost_ += relays_missing;
    return maybe_send_directory();
  }
  emit(TraceCmd{"registration_failed", {{"missing", missing}, {"relays_missing", relays_missing}}});
  fail("ranks never registered: " + nlohmann::json(missing).dump());
}

void Rendezvous::on_done(ConnId id) {
  if (phase_ != Phase::Running) return reject(id, "done before the groups went out");
  const auto slot = static_cast<std::size_t>(conns_[id].rank);  // registered (refusal)
  if (done_ranks_[slot]) return refuse(id, "done twice");
  done_ranks_[slot] = true;
  if (++done_ < n_) return;
  // Everyone reports and acknowledges before anyone leaves: a connection that closes after
  // this is never mistaken for a failure, whatever order the backend delivers things in.
  emit(TraceCmd{"shutdown", {{"processes", n_}}});
  phase_ = Phase::ShuttingDown;
  const Bytes shutdown = wire::encode(wire::make_shutdown());
  for (ConnId conn : rank_conn_) acks_waiting_.insert(conn);
  for (ConnId relay : relays_.conns()) acks_waiting_.insert(relay);
  for (ConnId conn : rank_conn_) emit(SendCmd{conn, shutdown, 0});
  for (ConnId relay : relays_.conns()) emit(SendCmd{relay, shutdown, 0});
}

void Rendezvous::on_shutdown_ack(ConnId id) {
  if (phase_ != Phase::ShuttingDown || acks_waiting_.erase(id) == 0)
    return reject(id, "shutdown ack nobody asked for");
  maybe_release();
}

// Every rank and relay has reported, or is gone: the run is over. The release frames go out
// before the exit (a backend performs commands in order and flushes what was sent).
void Rendezvous::maybe_release() {
  if (!acks_waiting_.empty()) return;
  const Bytes release = wire::encode(wire::make_release());
  for (ConnId conn : rank_conn_) emit(SendCmd{conn, release, 0});
  for (ConnId relay : relays_.conns()) emit(SendCmd{relay, release, 0});
  phase_ = Phase::Exited;
  emit(ExitCmd{true, ""});
}

void Rendezvous::on_closed(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Rank rank = it->second.rank;
  conns_.erase(it);
  // A relay that goes away is routed around by the others: the run carries on.
  if (auto relay = relays_.remove(id)) {
    if (phase_ != Phase::ShuttingDown) {
      emit(TraceCmd{"relay_lost", {{"relay", *relay}}});
      if (phase_ != Phase::Registering) return;
      // Lost before the directory went out: the run goes on without it, not waiting for it.
      ++relays_lost_;
      return maybe_send_directory();
    }
    acks_waiting_.erase(id);  // gone before its ack: it has nothing more to report
    return maybe_release();
  }
  // A node that goes away before the end leaves the run unable to finish: say who.
  if (rank != kNoRank) {
    emit(TraceCmd{"process_lost", {{"rank", rank}}});
    fail("rank " + std::to_string(rank) + " closed its connection to the rendezvous");
  }
}

void Rendezvous::fail(const std::string& reason) {
  phase_ = Phase::Exited;
  emit(ExitCmd{false, reason});
}

void Rendezvous::broadcast(const wire::Frame& frame) {
  Bytes bytes = wire::encode(frame);
  for (ConnId id : rank_conn_) emit(SendCmd{id, bytes, frame.filler});
}

}  // namespace tsunagi
