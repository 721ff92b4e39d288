// The node role: one application process (a rank). Its life, in order:
//   register with the rendezvous -> receive the directory -> probe RTTs to every peer and
//   report the peers it judges on its own switch (topology plan only) -> receive the combined
//   groups -> open its static connections (the plan) -> build routes by round exchange ->
//   run the workload, relaying for others and opening shortcuts -> on shutdown report, ack and
//   wait (leaving: connections that close now are expected) -> exit on release.
//
// Node is the life and the connections (through the connection set every role shares,
// role/role_connections.hpp); what it holds for each step is a part of its own, named after it:
//   NodeInference   (node_inference.*)    RTT probes, the switch view, measurement orders
//   NodeCollector   (node_collector.*)    a window's partition rounds, run for the rendezvous
//   NodeWindows     (node_windows.*)      protocol.window: measured paths, buffers held
//   StaticOverlay   (static_overlay.*)    the plan's neighbours, their connections, the routes
//   NodeShortcuts   (node_shortcuts.*)    shortcut connections and their cache
//   NodeMessaging   (node_messaging.*)    application messages: sent, relayed, waiting
//   RelayAttachment (relay_attachment.*)  the relay plan: the site's relays, the one attached
//   CpuQueue        (cpu_queue.*)         protocol.costs: the CPU's job queue
//   NodeFrames      (node_frames.*)       admitted frames, decoded and handed on (made per frame)
//   NodeWorkload    (node_workload.*)     the workload's context and its life on this rank
// The parts are the node's own: each reaches the node (and through it the others) by the
// reference it was made with, as the node's methods did when they were one class.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "node/cpu_queue.hpp"
#include "node/endpoint_book.hpp"
#include "node/node_admission.hpp"
#include "node/node_collector.hpp"
#include "node/node_conn.hpp"
#include "node/node_frames.hpp"
#include "node/node_inference.hpp"
#include "node/node_messaging.hpp"
#include "node/node_shortcuts.hpp"
#include "node/node_windows.hpp"
#include "node/node_workload.hpp"
#include "node/relay_attachment.hpp"
#include "node/static_overlay.hpp"
#include "role/registration_retry.hpp"
#include "role/role_connections.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/wire.hpp"
#include "tsunagi/model/workload/workload.hpp"

namespace tsunagi {

class Node final : public RoleConnections<Node, NodeConn> {
  friend class RoleConnections<Node, NodeConn>;
  friend class NodeInference;
  friend class NodeCollector;
  friend class NodeWindows;
  friend class StaticOverlay;
  friend class NodeShortcuts;
  friend class NodeMessaging;
  friend class RelayAttachment;
  friend class CpuQueue;
  friend class NodeFrames;
  friend class NodeWorkload;
  using Conn = NodeConn;
  static constexpr bool kConnects = true;

  enum class Phase {
    Idle,
    Registering,
    Probing,
    AwaitGroups,
    Windowing,  // protocol.window = "auto": measuring the plan's peers before connecting
    Connecting,
    Routing,
    Running,
    Leaving,
    Exited
  };
  // Probe keys: an RTT or throughput probe's end goes to the part that asked for it.
  static constexpr std::uint64_t kWindowProbeBit = std::uint64_t{1} << 61;
  static constexpr std::uint64_t kWorkloadProbeBit = std::uint64_t{1} << 60;

  // node.cpp: the role's side of its connections (role/role_connections.hpp)
  bool exited() const { return phase_ == Phase::Exited; }
  void on_started(const StartedInput& in);
  void connect_made(const Conn& c);
  void handshake_timed_out(const Conn& c);
  void conn_accepted(Conn& c) { c.outgoing = false; }
  void on_outgoing_open(ConnId id);
  void on_timer(std::uint64_t timer);
  void on_rtt_measured(const RttMeasuredInput& in);
  void on_throughput_measured(const ThroughputMeasuredInput& in);
  void on_compute_done(const ComputeDoneInput& in);
  // `why`: connected, but the acceptor did not prove the run's secret (issue 29).
  void on_connect_failed(const ConnectFailedInput& in, const std::string& why = "");
  void on_closed(ConnId id);
  void on_frame(ConnId id, wire::Frame frame);
  ConnId open_connection(const Endpoint& to, Rank peer, wire::ConnPurpose purpose);
  void close_connection(ConnId id);
  void reject(ConnId id, const std::string& reason);
  void trace(const char* kind, nlohmann::json detail);
  void count_open(ConnId id);
  void forget_counts(Conn& c);
  // node_register.cpp: reaching the rendezvous, again after a wait when a connect fails
  void connect_to_rendezvous();
  bool retry_rendezvous();
  // node_endpoints.cpp: directory on demand
  bool have_endpoints(const std::vector<Rank>& ranks);
  void on_endpoint_reply(const wire::EndpointReplyMsg& reply);
  bool relay_plan() const { return config_->overlay.plan == PlanKind::Relay; }
  bool direct_routing() const { return config_->overlay.routing == RoutingKind::Direct; }

  Phase phase_ = Phase::Idle;
  Rank rank_ = kNoRank;
  int n_ = 0;
  Endpoint self_;
  std::string host_;
  std::string site_;
  std::shared_ptr<const ProtocolConfig> config_;
  ConnId rendezvous_conn_ = 0;
  EndpointBook endpoints_;
  RegistrationRetry registration_;  // node_register.cpp
  NodeCounters counters_;

  NodeInference inference_{*this};
  NodeCollector collecting_{*this};
  NodeWindows windows_{*this};
  StaticOverlay overlay_{*this};
  NodeShortcuts shortcuts_{*this};
  NodeMessaging messaging_{*this};
  RelayAttachment relay_{*this};
  CpuQueue cpu_{*this};
  NodeWorkload work_{*this};
};

}  // namespace tsunagi
