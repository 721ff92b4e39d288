// The stream plumbing every role repeats for each connection: frames sent before an outgoing
// connect completes wait in order; a connect that has not completed by the protocol's
// connect_timeout is given up by the core itself (backends report only what the world did);
// received bytes are cut into frames for a handler that may close the connection while the loop
// runs. Private to the core's roles.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tsunagi/model/handshake.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::wire {

struct FramedConn {
  Deframer deframer;
  bool outgoing = false;
  bool up = false;  // outgoing: connected; incoming: as the role decides (accepted, greeted)
  std::vector<SendCmd> queued;  // sends issued before the connect (and handshake) completed
  auth::Handshake auth;         // handshake.hpp: nothing reaches the role before it is open
};

// The core's connect deadlines on one timer per role, not one per connect: a burst of connects
// (a node opens ~290 at 10,000 processes) then costs the backend one wake-up instead of one each.
// The timer always waits for the earliest deadline still pending, so every connect is given up
// exactly at its own deadline, and connects due together are given up in id order.
class ConnectDeadlines {
 public:
  // Connection `id` must be up by `deadline`. Returns the timer to arm when this deadline is
  // earlier than the one the armed timer waits for (or none is armed).
  std::optional<ArmTimerCmd> add(ConnId id, TimeNs deadline) {
    pending_.emplace(deadline, id);
    deadline_of_[id] = deadline;
    return rearm();
  }
  // Connection `id` is up, failed or closed: its deadline no longer matters.
  void settle(ConnId id) {
    auto it = deadline_of_.find(id);
    if (it == deadline_of_.end()) return;
    pending_.erase({it->second, id});
    deadline_of_.erase(it);
  }
  static bool is_deadline_timer(std::uint64_t timer) { return (timer & kTimerBit) != 0; }
  // Deadline timer `timer` fired at `now`: the connections whose deadline has passed, in
  // (deadline, id) order (the role gives up those still connecting), and the timer to arm for
  // the next deadline. A superseded timer yields nothing.
  std::vector<ConnId> fire(std::uint64_t timer, TimeNs now, std::optional<ArmTimerCmd>& next) {
    std::vector<ConnId> due;
    if (timer != (kTimerBit | generation_)) return due;
    armed_at_ = -1;
    while (!pending_.empty() && pending_.begin()->first <= now) {
      due.push_back(pending_.begin()->second);
      deadline_of_.erase(pending_.begin()->second);
      pending_.erase(pending_.begin());
    }
    next = rearm();
    return due;
  }
  // fire() for a role: each overdue connection of `conns` still connecting, or connected to an
  // acceptor that has not proven the run's secret, is handed to `give_up` (which closes it and
  // takes it as ConnectFailed{TimedOut}), each overdue accepted
  // connection whose peer has not proven the run's secret to `unproven` (which refuses it);
  // returns the timer to arm next, if any.
  template <class ConnMap, class GiveUp, class Unproven>
  std::optional<ArmTimerCmd> expire(std::uint64_t timer, TimeNs now, const ConnMap& conns,
                                    GiveUp give_up, Unproven unproven) {
    std::optional<ArmTimerCmd> next;
    for (ConnId id : fire(timer, now, next)) {
      auto it = conns.find(id);
      // Connected or proven in time (or gone): nothing to do.
      if (it == conns.end()) continue;
      // Both callbacks erase the connection: decide first, then call one. An outgoing one is
      // overdue until its acceptor has proven the secret, not only until TCP connected.
      const bool connecting = it->second.outgoing && (!it->second.up || !it->second.auth.open());
      const bool unauthenticated = !it->second.outgoing && !it->second.auth.open();
      if (connecting) give_up(id);
      if (unauthenticated) unproven(id);
    }
    return next;
  }

 private:
  // Deadline timers carry this bit and a generation number, so they never collide with a
  // role's own timers (small numbers) and a superseded one is recognised.
  static constexpr std::uint64_t kTimerBit = std::uint64_t{1} << 62;

  std::optional<ArmTimerCmd> rearm() {
    if (pending_.empty()) return std::nullopt;
    const TimeNs earliest = pending_.begin()->first;
    if (armed_at_ >= 0 && armed_at_ <= earliest) return std::nullopt;
    armed_at_ = earliest;
    return ArmTimerCmd{kTimerBit | ++generation_, earliest};
  }

  std::set<std::pair<TimeNs, ConnId>> pending_;
  std::unordered_map<ConnId, TimeNs> deadline_of_;  // looked up only, never iterated
  TimeNs armed_at_ = -1;  // the deadline the armed timer waits for, -1 when none is armed
  std::uint64_t generation_ = 0;
};

// A stranger may connect, but not stay: an accepted connection whose peer has not proven the
// run's secret this long after the accept is refused, so connections that say nothing (or stop
// half-way through the handshake) cannot hold a process's descriptors and memory for the whole
// run. Ours prove themselves within a round trip; 10 s leaves room for any scenario's latencies.
constexpr TimeNs kHandshakeTimeout = 10'000'000'000;
inline constexpr const char* kUnprovenReason = "not authenticated within 10 s of the accept";
// The initiator's side: an acceptor that has not proven the run's secret this long after the
// connect is given up (a silent listener on a peer's port). Twice the acceptor's deadline: an
// acceptor whose descriptors strangers hold frees them within 10 s of their accept, so our
// connection, waiting in its accept queue meanwhile, is taken within one such round.
constexpr TimeNs kInitiatorHandshakeTimeout = 2 * kHandshakeTimeout;
inline constexpr const char* kSilentAcceptorReason =
    "what listens there did not prove the run's secret within 20 s of the connect";

// Watches accepted connection `id` until it proves itself (only when the run authenticates).
inline std::optional<ArmTimerCmd> watch_handshake(ConnectDeadlines& deadlines,
                                                  const auth::RunKey& key, ConnId id, TimeNs now) {
  if (!key.required()) return std::nullopt;
  return deadlines.add(id, now + kHandshakeTimeout);
}

// The sends to perform now: none while the frame waits for the connect or the acceptor's
// challenge (it is queued); the initiator's first frame goes out behind its proof.
inline std::vector<SendCmd> send_or_queue(FramedConn& c, ConnId id, const Frame& frame,
                                          const auth::RunKey& key) {
  if (c.outgoing && !c.auth.open() && c.auth.first.empty())
    c.auth.first = auth::first_frame_bytes(frame);  // what the proof will cover
  SendCmd cmd{id, encode(frame), frame.filler};
  std::vector<SendCmd> now;
  if (c.outgoing && (!c.up || c.auth.stage == auth::Stage::AwaitChallenge)) {
    c.queued.push_back(std::move(cmd));
    return now;
  }
  if (c.outgoing && c.auth.stage == auth::Stage::Challenged)
    now.push_back(SendCmd{id, encode(auth::prove(c.auth, key)), 0});
  now.push_back(std::move(cmd));
  return now;
}

// The connect completed: the queued sends, in order, to perform now (none while the
// acceptor's challenge is awaited).
inline std::vector<SendCmd> mark_connected(FramedConn& c) {
  c.up = true;
  if (c.auth.stage == auth::Stage::AwaitChallenge) return {};
  return std::exchange(c.queued, {});
}

// One received frame through the connection's handshake: whether the role gets it, why the
// connection is refused, and what to send at once (handshake frames, then what waited for it).
struct Admitted {
  bool deliver = false;
  std::optional<std::string> reject;
  std::vector<SendCmd> send;
};
inline Admitted admit(FramedConn& c, ConnId id, const Frame& frame, auth::RunKey& key) {
  auth::Step step = auth::on_frame(c.auth, key, frame);
  Admitted out{step.deliver, std::move(step.reject), {}};
  for (const Frame& f : step.send) out.send.push_back(SendCmd{id, encode(f), 0});
  if (step.prove && !c.auth.first.empty()) {
    out.send.push_back(SendCmd{id, encode(auth::prove(c.auth, key)), 0});
    for (SendCmd& queued : std::exchange(c.queued, {})) out.send.push_back(std::move(queued));
  }
  return out;
}

// Feeds `in` to its connection and hands every complete frame to on_frame(id, Frame). The
// connection is looked up again after each frame, since the handler may have closed it. Returns
// the reason when the stream is malformed (the caller rejects the connection).
template <class ConnMap, class OnFrame>
std::optional<std::string> drain_frames(ConnMap& conns, const ReceivedInput& in, OnFrame on_frame) {
  auto it = conns.find(in.conn);
  if (it == conns.end()) return std::nullopt;
  it->second.deframer.feed(in.bytes, in.filler);
  while (true) {
    it = conns.find(in.conn);
    if (it == conns.end()) return std::nullopt;
    // Decided frame by frame: the frame that completes the handshake lifts the bound for the
    // frames behind it in the same read.
    it->second.deframer.set_unauthenticated(!it->second.auth.open());
    auto next = it->second.deframer.next();
    if (std::holds_alternative<std::monostate>(next)) return std::nullopt;
    if (auto* error = std::get_if<DecodeError>(&next)) return error->reason;
    on_frame(in.conn, std::get<Frame>(std::move(next)));
  }
}

}  // namespace tsunagi::wire
