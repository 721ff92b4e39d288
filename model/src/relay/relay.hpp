// The relay role (paper 001's ssockd). Its life:
//   register with the rendezvous -> receive the list of every relay -> connect to every other
//   relay (both ends try; every connection that succeeds is a link) -> flood link-state adverts
//   whenever its links, attached ranks or settledness change -> forward data between sites along
//   the shortest relay paths -> report its links and paths and exit on the rendezvous's shutdown.
// Nodes of its site attach to it; it delivers to them on those connections. Data it cannot
// deliver goes back to its source as an Undeliverable notice (docs/relay.md).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "role/registration_retry.hpp"
#include "role/role_connections.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/relay/link_state.hpp"
#include "tsunagi/model/wire.hpp"
#include "wire/framed_conn.hpp"

namespace tsunagi {

enum class RelayPeerKind { Unknown, Rendezvous, Relay, Node };
struct RelayConn : wire::FramedConn {
  RelayPeerKind kind = RelayPeerKind::Unknown;
  std::string relay;    // kind Relay: its label
  Rank rank = kNoRank;  // kind Node: the attached rank
};

class Relay final : public RoleConnections<Relay, RelayConn> {
  friend class RoleConnections<Relay, RelayConn>;
  using PeerKind = RelayPeerKind;
  using Conn = RelayConn;
  static constexpr bool kConnects = true;

  // relay.cpp: the role's side of its connections (role/role_connections.hpp), registration,
  // links
  bool exited() const { return exited_; }
  void on_started(const StartedInput& in);
  void on_timer(std::uint64_t timer);
  void conn_accepted(Conn& c) { c.up = true; }  // a relay greets nobody: accepted is up
  void connect_made(const Conn&) {}
  void handshake_timed_out(const Conn&);
  // A relay asks for no probes and no CPU work.
  void on_rtt_measured(const RttMeasuredInput&) {}
  void on_throughput_measured(const ThroughputMeasuredInput&) {}
  void on_compute_done(const ComputeDoneInput&) {}
  // `why`: connected, but the acceptor did not prove the run's secret (issue 29).
  void on_connect_failed(const ConnectFailedInput& in, const std::string& why = "");
  void on_outgoing_open(ConnId id);
  void on_closed(ConnId id);
  void on_frame(ConnId id, wire::Frame frame);
  void on_first_frame(ConnId id, const wire::Frame& frame);
  void connect_to_rendezvous();
  bool retry_rendezvous();
  void on_relay_list(const wire::RelayListMsg& list);
  void link_up(ConnId id);
  void attempt_settled();
  ConnId open(const Endpoint& to);
  void reject(ConnId id, const std::string& reason);
  void trace(const char* kind, nlohmann::json detail) { emit(TraceCmd{kind, std::move(detail)}); }

  // relay_forwarding.cpp: link state, forwarding, undeliverable, report
  void advertise();
  bool settled(const std::string& relay) const;
  void on_advert(ConnId from, const wire::Frame& frame);
  void send_database(ConnId id);
  void flood(const wire::Frame& frame, ConnId except);
  bool converged() const;
  void refresh_routes();
  std::optional<std::string> owner_of(Rank rank);
  void route(wire::Frame frame);
  void retry_held();
  void give_up(const wire::Frame& frame, const std::string& reason);
  nlohmann::json site_paths();
  void on_shutdown();
  void on_release();

  std::string label_;
  std::string site_;
  Endpoint self_;
  std::shared_ptr<const ProtocolConfig> config_;
  ConnId rendezvous_conn_ = 0;
  RegistrationRetry registration_;

  std::vector<wire::RelayEntry> relays_;  // every relay, from the rendezvous
  int attempts_open_ = 0;                 // our relay connects not yet settled
  bool have_list_ = false;
  std::map<std::string, std::vector<ConnId>> links_;  // live links by relay label
  std::set<std::string> unreachable_;                 // relays our own connect to failed
  std::map<Rank, ConnId> attached_;                   // ranks of our site attached to us
  std::set<Rank> expected_;                           // ranks told to attach to us first

  relay::LinkState db_;
  std::uint64_t seq_ = 0;
  bool routes_dirty_ = true;
  std::map<std::string, std::string> next_hop_;  // reachable relay -> our next hop to it
  std::map<std::string, std::size_t> hops_;      // reachable relay -> relays on the path
  std::vector<wire::Frame> held_;                // waiting for a route to appear

  std::uint64_t forwarded_ = 0;
  std::uint64_t delivered_ = 0;
  std::uint64_t undeliverable_ = 0;
  bool exited_ = false;
  bool leaving_ = false;  // shutdown acknowledged: waiting for the release
};

}  // namespace tsunagi
