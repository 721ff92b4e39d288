// The rendezvous role: the bootstrap server every node and relay reaches first. Its life, in
// order (Phase):
//   Registering  ranks (and relays, plan = relay) register; the directory goes out once all came
//                (or the run fails at registration_timeout, naming who is missing)
//   Inferring    the nodes' switch views are combined into groups (paper 000 §2.1), by all
//                views, by leader rounds, then optionally the switch tree; the groups go out
//   Running      nodes connect, route and run the workload; the rendezvous passes on
//                PeerUnreachable, answers endpoint queries and holds the routing = direct
//                barrier; it counts Done frames
//   ShuttingDown every rank is done: Shutdown to every rank and relay, which report and ack
//   Exited       every ack is in (or its sender gone): Release to all, and exit
// The end of the run is this phase sequence, the same on every backend: no backend decides
// when daemons stop, and no connection that closes after Shutdown is news to anyone.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "rendezvous/leader_rounds.hpp"
#include "rendezvous/partition_inference.hpp"
#include "rendezvous/probe_turns.hpp"
#include "rendezvous/relay_registry.hpp"
#include "rendezvous/tree_prober.hpp"
#include "role/role_connections.hpp"
#include "tsunagi/model/handshake.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/wire.hpp"
#include "wire/framed_conn.hpp"

namespace tsunagi {

// Nothing reaches on_frame before its handshake is open (handshake.hpp). The rendezvous only
// accepts: its connections are never outgoing.
struct RendezvousConn : wire::FramedConn {
  Rank rank = kNoRank;     // registered as
  Rank greeted = kNoRank;  // the rank its hello named: it may register only that one
};

class Rendezvous final : public RoleConnections<Rendezvous, RendezvousConn> {
  friend class RoleConnections<Rendezvous, RendezvousConn>;
  using Conn = RendezvousConn;
  static constexpr bool kConnects = false;  // ranks and relays come to it

  enum class Phase { Idle, Registering, Inferring, Running, ShuttingDown, Exited };

  // rendezvous.cpp: the role's side of its connections (role/role_connections.hpp),
  // registration, directory, the running phase, shutdown
  bool exited() const { return phase_ == Phase::Exited; }
  void on_started(const StartedInput& in);
  void on_timer(std::uint64_t timer);
  // The rendezvous measures nothing and computes nothing itself.
  void on_rtt_measured(const RttMeasuredInput&) {}
  void on_throughput_measured(const ThroughputMeasuredInput&) {}
  void on_compute_done(const ComputeDoneInput&) {}
  void on_frame(ConnId id, const wire::Frame& frame);
  // rendezvous_admission.cpp: why connection `id` may not send `frame`, or nothing.
  std::optional<std::string> refusal(ConnId id, const wire::Frame& frame);
  void on_closed(ConnId id);
  void reject(ConnId id, const std::string& reason);
  void refuse(ConnId id, const std::string& reason);
  void fail(const std::string& reason);
  void broadcast(const wire::Frame& frame);
  void on_hello(ConnId id, const wire::Frame& frame);
  void on_register(ConnId id, const wire::Frame& frame);
  void on_relay_register(ConnId id, const wire::Frame& frame);
  bool everyone_registered() const;
  void maybe_send_directory();
  void send_relay_lists();
  void on_registration_deadline();
  void on_peer_unreachable(ConnId id, const wire::Frame& frame);
  void on_probe_turn(ConnId id, const wire::Frame& frame);
  void on_settled(ConnId id);
  void on_endpoint_query(ConnId id, const wire::Frame& frame);
  void on_done(ConnId id);
  void on_shutdown_ack(ConnId id);
  void maybe_release();

  // rendezvous_inference.cpp: groups and the switch tree
  void on_rtt_report(ConnId id, const wire::Frame& frame);
  void send_leader_order();
  void send_partition_orders();
  void on_rtt_column(ConnId id, const wire::Frame& frame);
  void on_window_groups(ConnId id, const wire::Frame& frame);
  void groups_ready(Groups groups);
  bool start_tree_inference();
  bool start_rtt_tree();
  void on_rep_row(Rank from, const std::vector<RttSample>& row);
  void keep_partition_tree(const Groups& unsorted);
  bool report_partition_tree();
  void send_probe_orders();
  void on_probe_result(ConnId id, const wire::Frame& frame);
  void finish_inference();
  void send_placements();

  Phase phase_ = Phase::Idle;
  int n_ = 0;
  std::shared_ptr<const ProtocolConfig> config_;
  std::vector<ConnId> rank_conn_;
  std::vector<Endpoint> endpoints_;
  std::vector<std::string> hosts_;
  std::vector<std::string> sites_;
  RelayRegistry relays_;
  int relays_expected_ = 0;
  int relays_lost_ = 0;  // registered, then gone before the directory went out
  int registered_ = 0;

  // inference
  std::vector<std::vector<Rank>> near_;
  std::vector<bool> reported_;  // ranks whose RTT report counted
  int reports_ = 0;
  std::uint64_t rtt_probes_ = 0;
  Groups groups_;                   // between group inference and broadcasting them
  std::optional<SwitchTree> tree_;  // the inferred tree, until the groups went out
  nlohmann::json inference_;        // the "inference" report being put together
  std::optional<TreeProber> prober_;
  std::optional<LeaderRounds> leaders_;
  std::optional<PartitionInference> partition_;
  // groups = partition: the switch tree from the rounds' own RTTs, leaves in the sorted group
  // order groups_ has (the hierarchical plan reads it; tree = partition reports it).
  std::optional<SwitchTree> partition_tree_;
  std::optional<std::vector<std::vector<TimeNs>>> tree_rtts_;  // tree = rtt: rep x rep
  std::unordered_map<Rank, int> rep_group_;  // tree = rtt: representative -> group index
  std::size_t reps_waiting_ = 0;
  int partition_levels_ = 0;  // groups = partition: depth of the recursion, for the report
  std::uint64_t partition_max_probes_ = 0;
  std::size_t partition_windows_ = 0;  // windows the chain cut the hosts into
  bool partition_fell_back_ = false;   // a group was no run of hosts: rounds over all ranks

  // running and shutdown
  ProbeTurns probe_turns_;  // window = "auto": who measures whose path now
  int settled_ = 0;
  int done_ = 0;
  std::vector<bool> settled_ranks_;  // each rank's Settled and Done count once
  std::vector<bool> done_ranks_;
  std::set<ConnId> acks_waiting_;  // ranks and relays told to shut down, not yet acknowledged
};

}  // namespace tsunagi
