// The connection set every role (Node, Relay, Rendezvous) stands on: one input dispatch, checked
// at compile time to handle every input kind, and the plumbing of its connections — ids, the
// run's secret, connect and handshake deadlines, frames queued before the connect, received
// bytes cut into frames. Before it, node.cpp and relay.cpp each wrote this out and the
// rendezvous a third, smaller copy; a fix to one (issue 29's silent acceptors) had to be made
// three times.
//
// A role derives from RoleConnections<Role, Conn> (CRTP; Conn derives from wire::FramedConn) and
// befriends it. It provides what is its own:
//   exited()                                  true once it emitted its ExitCmd
//   on_started, on_closed(ConnId)             its life and its lost connections
//   on_frame(ConnId, Frame)                   a frame that passed the handshake
//   on_timer(std::uint64_t)                   its own timers (deadline timers are handled here)
//   on_rtt_measured, on_throughput_measured, on_compute_done
// and, when kConnects (it opens connections):
//   on_connect_failed(const ConnectFailedInput&, const std::string& why)
//   on_outgoing_open(ConnId)                  connected, and the acceptor proved the secret
//   connect_made(Conn&)                       TCP connected (before the proof)
//   handshake_timed_out(const Conn&)          traces an acceptor that never proved the secret
// Optional: conn_accepted(Conn&), called before an accepted connection's challenge goes out.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "tsunagi/model/handshake.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/wire.hpp"
#include "wire/framed_conn.hpp"

namespace tsunagi {

template <class Role, class Conn>
class RoleConnections : public Process {
  static_assert(std::is_base_of_v<wire::FramedConn, Conn>, "a role's Conn is a FramedConn");

 public:
  // Every input kind goes to exactly one handler; a kind added to io.hpp and not handled here
  // fails to compile (as perform_commands does for the backends' command kinds).
  void handle(Input& input) final {
    now_ = input.now;
    if (role().exited()) return;
    std::visit([this](const auto& ev) { dispatch(ev); }, input.event);
  }

 protected:
  void conn_accepted(Conn&) {}  // a role that marks accepted connections shadows this

  // Opens an outgoing connection to `to`, given up at connect_timeout. `prepare(id, conn)` fills
  // in the role's fields first (and may size its buffers: window scaling is agreed in the
  // handshake, so the buffers are set before the connect).
  template <class Prepare>
  ConnId open_outgoing(const Endpoint& to, TimeNs connect_timeout, Prepare prepare) {
    const ConnId id = next_conn_++;
    Conn& c = conns_[id];
    c.outgoing = true;
    prepare(id, c);
    auth::begin_initiator(c.auth, key_);
    emit(ConnectCmd{id, to});
    if (auto timer = deadlines_.add(id, now_ + connect_timeout)) emit(*timer);
    return id;
  }

  void send_frame(ConnId id, const wire::Frame& frame) {
    auto it = conns_.find(id);
    if (it == conns_.end()) return;
    for (SendCmd& cmd : wire::send_or_queue(it->second, id, frame, key_)) emit(std::move(cmd));
  }

  // A failed outgoing connection leaves the set; the role decides what its loss means.
  std::optional<Conn> take_failed(ConnId id) {
    deadlines_.settle(id);
    auto it = conns_.find(id);
    if (it == conns_.end()) return std::nullopt;
    Conn c = std::move(it->second);
    conns_.erase(it);
    return c;
  }

  // A frame arrived on `id`: through the handshake first. True when the role gets it; false when
  // it was the handshake's (sent on, or it opened the connection) or the connection was refused.
  bool admit(ConnId id, const wire::Frame& frame) {
    Conn& c = conns_.at(id);
    const bool opening = c.outgoing && !c.auth.open();
    wire::Admitted admitted = wire::admit(c, id, frame, key_);
    for (SendCmd& cmd : admitted.send) emit(std::move(cmd));
    if (admitted.reject) {
      role().reject(id, *admitted.reject);
      return false;
    }
    // The acceptor's proof (auth_accept) checked out. That frame is the handshake's, never the
    // role's; opening may retire the connection (a duplicate shortcut), so nothing follows.
    if constexpr (Role::kConnects) {
      if (opening && c.auth.open()) {
        role().on_outgoing_open(id);
        return false;
      }
    }
    return admitted.deliver;
  }

  // The end of a rejected connection, once the role traced why. Ours to something that is not
  // of the run: the peer was never up, so this is a failed connect (reported, routed around),
  // not a lost link. Otherwise closing looks the same to us as the peer closing: the role's
  // on_closed, then the backend is told.
  void drop(ConnId id, const std::string& reason) {
    auto it = conns_.find(id);
    const bool unproven = it != conns_.end() && !it->second.auth.open();
    if constexpr (Role::kConnects) {
      if (unproven && it->second.outgoing) {
        emit(CloseCmd{id, true});
        return role().on_connect_failed({id, ConnectFailure::Refused}, reason);
      }
    }
    role().on_closed(id);
    emit(CloseCmd{id, unproven});
  }

  // The first steps of a role's on_closed. True when nothing is left for the role to decide:
  // the connection is unknown, the role is leaving (every connection that closes now is
  // expected), or it was ours and closed before the acceptor proved itself (a failed connect).
  bool closed_settled(ConnId id, bool leaving) {
    auto it = conns_.find(id);
    if (it == conns_.end()) return true;
    if (leaving) {
      conns_.erase(it);
      return true;
    }
    if (!it->second.outgoing || it->second.auth.open()) return false;
    if constexpr (Role::kConnects)
      role().on_connect_failed({id, ConnectFailure::Refused},
                               "closed before proving the run's secret");
    return true;
  }

  TimeNs now_ = 0;
  std::unordered_map<ConnId, Conn> conns_;
  auth::RunKey key_;  // the run's secret: every connection proves it (handshake.hpp)
  wire::ConnectDeadlines deadlines_;  // connects, and handshakes that must finish in time

 private:
  Role& role() { return static_cast<Role&>(*this); }

  template <class T>
  void dispatch(const T& ev) {
    if constexpr (std::is_same_v<T, StartedInput>) {
      role().on_started(ev);
    } else if constexpr (std::is_same_v<T, ConnectedInput>) {
      if constexpr (Role::kConnects) on_connected(ev.conn);
    } else if constexpr (std::is_same_v<T, AcceptedInput>) {
      on_accepted(ev.conn);
    } else if constexpr (std::is_same_v<T, ConnectFailedInput>) {
      if constexpr (Role::kConnects) role().on_connect_failed(ev, "");
    } else if constexpr (std::is_same_v<T, ReceivedInput>) {
      on_received(ev);
    } else if constexpr (std::is_same_v<T, ClosedInput>) {
      role().on_closed(ev.conn);
    } else if constexpr (std::is_same_v<T, TimerFiredInput>) {
      if (wire::ConnectDeadlines::is_deadline_timer(ev.timer)) return on_deadline(ev.timer);
      role().on_timer(ev.timer);
    } else if constexpr (std::is_same_v<T, RttMeasuredInput>) {
      role().on_rtt_measured(ev);
    } else if constexpr (std::is_same_v<T, ThroughputMeasuredInput>) {
      role().on_throughput_measured(ev);
    } else if constexpr (std::is_same_v<T, ComputeDoneInput>) {
      role().on_compute_done(ev);
    } else {
      static_assert(sizeof(T) == 0, "an input kind is not handled");
    }
  }

  void on_accepted(ConnId id) {
    Conn& c = conns_[id];
    role().conn_accepted(c);
    if (auto challenge = auth::begin_acceptor(c.auth, key_))
      emit(SendCmd{id, wire::encode(*challenge), 0});
    if (auto timer = wire::watch_handshake(deadlines_, key_, id, now_)) emit(*timer);
  }

  void on_connected(ConnId id) {
    auto it = conns_.find(id);
    if (it == conns_.end()) return;
    Conn& c = it->second;
    deadlines_.settle(id);
    for (SendCmd& cmd : wire::mark_connected(c)) emit(std::move(cmd));
    role().connect_made(c);
    if (c.auth.open()) return role().on_outgoing_open(id);  // the run does not authenticate
    // Up only once the acceptor has proven the run's secret, by the initiator's deadline.
    if (auto timer = deadlines_.add(id, now_ + wire::kInitiatorHandshakeTimeout)) emit(*timer);
  }

  void on_received(const ReceivedInput& in) {
    auto bad = wire::drain_frames(
        conns_, in, [this](ConnId id, wire::Frame f) { role().on_frame(id, std::move(f)); });
    if (bad) role().reject(in.conn, *bad);
  }

  // Overdue connects and handshakes: ours are given up (a silent acceptor is closed as
  // refused), accepted ones whose peer never proved the secret are refused.
  void on_deadline(std::uint64_t timer) {
    const auto give_up = [this](ConnId id) {
      if constexpr (Role::kConnects) {
        const Conn& c = conns_.at(id);
        const bool silent = c.up;  // connected: the acceptor never proved the secret
        if (silent) role().handshake_timed_out(c);
        emit(CloseCmd{id, silent});
        role().on_connect_failed({id, ConnectFailure::TimedOut},
                                 silent ? wire::kSilentAcceptorReason : "");
      }
    };
    const auto unproven = [this](ConnId id) { role().reject(id, wire::kUnprovenReason); };
    if (auto next = deadlines_.expire(timer, now_, conns_, give_up, unproven)) emit(*next);
  }

  ConnId next_conn_ = 1;
};

}  // namespace tsunagi
