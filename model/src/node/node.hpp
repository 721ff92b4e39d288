// The node role: one application process (a rank). Its life, in order:
//   register with the rendezvous -> receive the directory -> probe RTTs to every peer and
//   report the peers it judges on its own switch (topology plan only) -> receive the combined
//   groups -> open its static connections (the plan) -> build routes by round exchange ->
//   run the workload, relaying for others and opening shortcuts -> on shutdown report, ack and
//   wait (leaving: connections that close now are expected) -> exit on release.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "node/endpoint_book.hpp"
#include "rendezvous/partition_collector.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/overlay/group_routes.hpp"
#include "tsunagi/model/overlay/hierarchy.hpp"
#include "tsunagi/model/overlay/routing.hpp"
#include "tsunagi/model/overlay/shortcut_cache.hpp"
#include "tsunagi/model/topology/rtt_sampler.hpp"
#include "tsunagi/model/topology/switch_inference.hpp"
#include "tsunagi/model/window/path_meter.hpp"
#include "tsunagi/model/window/window_policy.hpp"
#include "tsunagi/model/wire.hpp"
#include "tsunagi/model/workload/workload.hpp"
#include "wire/framed_conn.hpp"

namespace tsunagi {

struct NodeCounters {
  std::uint64_t messages_sent = 0;
  std::uint64_t messages_delivered = 0;
  std::uint64_t messages_relayed = 0;
  std::uint64_t messages_undeliverable = 0;
  std::uint64_t frames_rejected = 0;
  std::uint64_t shortcuts_opened = 0;    // opened by this node (each shortcut counted once)
  std::uint64_t shortcuts_accepted = 0;  // opened towards this node by a peer
  std::uint64_t shortcuts_evicted = 0;
  std::uint64_t rtt_probes = 0;
  // Data connections in use (static links and held shortcuts) and their peak; connections in
  // their goodbye handshake (an evicted shortcut, the losing one of two opened at once) are
  // counted apart: they carry no new data and close after one round trip.
  int open_data_connections = 0;
  int max_data_connections = 0;
  int closing_connections = 0;
  int max_closing_connections = 0;
};

class Node final : public Process, private WorkloadContext {
 public:
  void handle(Input& input) override;

 private:
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

  // up: outgoing = connected; incoming = its hello seen.
  struct Conn : wire::FramedConn {
    Rank peer = kNoRank;
    wire::ConnPurpose purpose = wire::ConnPurpose::Control;
    bool closing = false;            // we sent goodbye: receive only, close on the answer
    bool counted = false;            // in open_data_connections (see NodeCounters)
    std::uint64_t window_bytes = 0;  // send + receive buffers the core gave it (node_window.cpp)
  };

  // node.cpp: dispatch and connection plumbing
  void on_started(const StartedInput& in);
  void on_connected(ConnId id);
  void on_outgoing_open(ConnId id);
  void on_accepted(ConnId id);
  void on_timer(std::uint64_t timer);
  // node_register.cpp: reaching the rendezvous, again after a jittered wait when a connect fails
  void connect_to_rendezvous();
  bool retry_rendezvous();
  // `why`: connected, but the acceptor did not prove the run's secret (issue 29).
  void on_connect_failed(const ConnectFailedInput& in, const std::string& why = "");
  void on_received(ReceivedInput in);
  void on_closed(ConnId id);
  void on_frame(ConnId id, wire::Frame frame);
  void on_hello(ConnId id, const wire::Frame& frame);
  // node_admission.cpp: why connection `id` may not send `frame`, or nothing when it may.
  std::optional<std::string> refusal(ConnId id, const Conn& c, const wire::Frame& frame) const;
  ConnId open_connection(const Endpoint& to, Rank peer, wire::ConnPurpose purpose);
  void send_frame(ConnId id, const wire::Frame& frame);
  void close_connection(ConnId id);
  void reject(ConnId id, const std::string& reason);
  void trace(const char* kind, nlohmann::json detail);

  // node_inference.cpp
  void on_directory(wire::DirectoryMsg msg);
  void issue_probes();
  void on_rtt(const RttMeasuredInput& in);
  // RTT probes are echoes the sampler asks for one at a time (rtt_sampler.hpp): start one,
  // then send its next echo or hand its end to the part that asked (by the key's bits).
  void start_rtt_probe(std::uint64_t key, const Endpoint& to, std::uint32_t bytes, int samples);
  void take_echo_step(RttSampler::Step step);
  void on_throughput(const ThroughputMeasuredInput& in);
  void on_probe_order(const wire::ProbeOrderMsg& order);
  // `from`: the connection the order came on, answered there; kOwnCollector: this node's own.
  void on_rtt_order(wire::RttOrderMsg order, ConnId from);
  void finish_ordered_probing();
  void finish_probing();
  bool have_endpoints(const std::vector<Rank>& ranks);
  void on_endpoint_reply(const wire::EndpointReplyMsg& reply);

  // node_collector.cpp: a window's partition rounds, run here for the rendezvous
  static constexpr ConnId kOwnCollector = ~ConnId{0};
  void on_window_order(const wire::WindowOrderMsg& msg);
  void pump_collector();
  ConnId collect_conn(Rank leader);
  static constexpr std::uint32_t kPrimeRound = 1;  // an empty order: "you have the endpoints"
  void prime_leaders();
  void release_orders();
  void collect_conn_open(Rank leader);
  void on_collect_answer(Rank leader, const wire::RttColumnMsg& column);
  void on_collected_column(Rank leader, const std::vector<RttSample>& row);
  void collector_failed(Rank leader, const std::string& why);

  // node_window.cpp: protocol.window (issue 15)
  static constexpr std::uint64_t kWindowProbeBit = std::uint64_t{1} << 61;
  static constexpr std::uint64_t kWorkloadProbeBit = std::uint64_t{1} << 60;
  void start_windowing();
  void measure_next_window();
  void on_window_rtt(const RttMeasuredInput& in);
  void on_window_throughput(const ThroughputMeasuredInput& in);
  void probe_window_path(Rank peer);
  void window_measured(Rank peer);
  bool last_window_pass() const;
  void trace_window(Rank peer);
  void size_window(ConnId id, Rank peer);
  void release_window(Conn& c);
  void report_windows(nlohmann::json& node_report) const;
  void on_workload_rtt(const RttMeasuredInput& in);
  void on_workload_throughput(const ThroughputMeasuredInput& in);

  // node_overlay.cpp
  std::optional<std::string> placement_refusal(const wire::GroupsMsgBody& body) const;
  void on_groups(wire::GroupsMsgBody body);
  void start_static_connects();
  void remember_groups(const Groups& groups);
  void static_peer_up(Rank peer, ConnId id);
  void static_peer_failed(Rank peer);
  void check_static_ready();
  void open_more_static();
  void ask_static_endpoints();
  void static_connect_settled(const Conn& c);
  void on_route_round(Rank from, const wire::Frame& frame);
  void pump_routing();
  void routing_done();
  void trace_routes();
  bool routes_ready() const;
  Rank next_hop(Rank dest) const;

  // node_messaging.cpp
  void on_data(wire::Frame frame);
  void originate(wire::Frame frame);    // this rank's own message, on its way
  void relay_frame(wire::Frame frame);  // someone else's message, one hop further
  void deliver(wire::Frame frame);      // a message for this rank's workload
  void forward(wire::Frame frame);
  std::optional<ConnId> direct_conn(Rank peer);
  void maybe_open_shortcut(Rank peer);
  void shortcut_up(Rank peer, ConnId id, bool initiated);
  void touch_shortcut(Rank peer, ConnId id);
  void retire_shortcut(ConnId id, wire::GoodbyeReason reason = wire::GoodbyeReason::Evicted);
  void evict_lru_shortcut();  // the least recently used established shortcut goes
  void hold_shortcut(Rank peer, ConnId id, bool initiated);
  void count_open(ConnId id);
  void forget_counts(Conn& c);
  void on_goodbye(ConnId id, wire::GoodbyeReason reason);
  void flush_waiting_frames();
  void undeliverable(const wire::Frame& frame, const std::string& reason);
  void on_shutdown();
  void on_release();

  // node_relay.cpp: plan = relay (attach to a relay of the site) and routing = direct (barrier)
  bool relay_plan() const { return config_->overlay.plan == PlanKind::Relay; }
  bool direct_routing() const { return config_->overlay.routing == RoutingKind::Direct; }
  bool in_own_site(Rank peer) const;
  void on_relay_list(ConnId id, const wire::Frame& frame);
  void attach_relay();
  void relay_up(ConnId id);
  void relay_gone(ConnId id, const char* why);
  void send_via_relay(wire::Frame frame);
  void on_undeliverable_notice(const wire::Frame& frame);
  void announce_settled();
  void on_start();
  void start_workload();

  // WorkloadContext
  Rank rank() const override { return rank_; }
  int size() const override { return n_; }
  TimeNs now() const override { return now_; }
  std::uint64_t seed() const override { return config_->seed; }
  void send(Rank dst, std::uint32_t tag, Bytes body, std::uint64_t filler) override;
  void compute(std::uint64_t task, TimeNs duration) override;
  void cpu(std::uint64_t task, TimeNs duration) override;
  void report(const std::string& key, nlohmann::json value) override;
  void finished() override;
  void arm_timer(std::uint64_t timer, TimeNs at) override { emit(ArmTimerCmd{timer, at}); }
  void decision(const std::string& kind, nlohmann::json detail) override {
    trace(kind.c_str(), std::move(detail));
  }
  const std::vector<int>& switch_group_of_rank() const override { return group_of_rank_; }
  void probe_rtt(Rank dst, std::uint64_t probe, std::uint32_t bytes, int samples) override;
  void probe_throughput(Rank dst, std::uint64_t probe, std::uint64_t bytes) override;

  Phase phase_ = Phase::Idle;
  TimeNs now_ = 0;
  Rank rank_ = kNoRank;
  int n_ = 0;
  Endpoint self_;
  std::string host_;
  std::string site_;
  std::shared_ptr<const ProtocolConfig> config_;

  ConnId next_conn_ = 1;
  std::unordered_map<ConnId, Conn> conns_;
  wire::ConnectDeadlines connect_deadlines_;
  auth::RunKey key_;  // the run's secret: every connection proves it (handshake.hpp)
  ConnId rendezvous_conn_ = 0;
  EndpointBook endpoints_;
  bool have_directory_ = false;  // the rendezvous's directory frame arrived
  std::vector<wire::ProbeOrderMsg> orders_awaiting_endpoints_;
  std::vector<Rank> shortcuts_awaiting_endpoints_;
  std::vector<std::pair<Rank, ConnId>> early_shortcuts_;  // accepted before our routes were done

  // inference
  std::vector<RttSample> rtts_;
  std::vector<Rank> host_mates_;  // same host label: near without measuring
  std::vector<Rank> probe_targets_;
  std::size_t next_probe_ = 0;
  int probes_in_flight_ = 0;
  RttSampler rtt_sampler_;
  std::optional<std::uint32_t> ordered_round_;  // probing for an RttOrder
  ConnId order_conn_ = 0;                       // where that order came from
  std::unique_ptr<PartitionCollector> collector_;
  std::map<Rank, ConnId> collect_conns_;  // the collector's connections to its leaders
  std::set<Rank> collect_open_;           // those up (their acceptor proved the secret)
  std::map<Rank, bool> collect_primed_;   // endpoints sent; true once the leader answered
  int collect_out_ = 0;                   // orders of the current wave not yet answered
  std::vector<PartitionCollector::Order> collect_orders_;  // waiting for their connections

  // overlay
  std::vector<Rank> plan_;               // static neighbours, sorted
  std::map<Rank, ConnId> static_conns_;  // neighbour -> connection
  std::set<Rank> static_failed_;
  std::deque<Rank> static_to_open_;  // planned peers we connect to, not yet tried
  int static_opening_ = 0;           // our static connects not yet settled
  bool have_plan_ = false;
  std::size_t plan_settled_ = 0;        // plan_[0, this) is connected or failed
  std::vector<int> group_of_rank_;      // the groups the rendezvous sent, by rank (workloads)
  Groups plan_groups_;                  // routing = groups: as the plan used them
  std::optional<Placement> placement_;  // plan = hierarchical: until the routes are built
  std::unique_ptr<RouteTable> routes_;  // rounds or groups (protocol.overlay.routing)
  std::vector<std::pair<Rank, wire::Frame>> early_rounds_;
  ShortcutCache shortcuts_{0};
  std::set<Rank> shortcut_pending_;
  std::vector<wire::Frame> waiting_frames_;  // data that arrived before routes existed
  TimeNs settled_at_ = -1;                   // when the static connects settled

  // relay plan
  std::vector<wire::RelayEntry> site_relays_;  // ours first, then the fall-backs
  bool have_relay_list_ = false;               // the rendezvous sends it once, before the directory
  std::size_t relay_choice_ = 0;               // index of the relay tried or attached
  std::string relay_label_;                    // of that relay, kept apart from the list
  ConnId relay_conn_ = 0;
  bool relay_attached_ = false;
  bool relay_settled_ = true;               // attached, or no relay left to try
  std::vector<wire::Frame> relay_waiting_;  // for other sites, while attaching

  // workload
  std::unique_ptr<Workload> workload_;
  std::vector<wire::Frame> early_data_;  // data for this rank before the workload began
  bool workload_finished_ = false;
  std::uint32_t data_seq_ = 0;

  // windows (node_window.cpp)
  std::map<Rank, PathEstimate> paths_;  // auto: what was measured to each plan peer
  std::vector<Rank> window_targets_;
  std::size_t next_window_ = 0;
  std::size_t window_round_ = 0;                       // peers in one pass
  std::map<Rank, std::vector<double>> window_passes_;  // each pass's rate, for the trace
  std::optional<PathMeter> window_meter_;              // of the peer being measured
  std::vector<ConnId> awaiting_window_;                // accepted before their peer was measured
  std::uint64_t window_bytes_held_ = 0;                // over all open data connections
  std::uint64_t max_window_bytes_held_ = 0;

  // node_cpu.cpp: the node's CPU when protocol.costs are set. Jobs run one after another, each
  // a compute of its cost, then its action; with every cost 0 nothing is queued.
  struct CpuJob {
    enum class Kind { Pay, Send, Relay, Deliver, Workload };
    Kind kind = Kind::Pay;
    TimeNs cost = 0;
    wire::Frame frame;       // Send, Relay, Deliver
    std::uint64_t task = 0;  // Workload: its on_compute_done(task)
  };
  static constexpr std::uint64_t kCpuTaskBit = std::uint64_t{1} << 62;
  void charge(CpuJob::Kind kind, TimeNs cost, wire::Frame frame = {});
  TimeNs message_cost() const;  // select() over the open data connections
  void run_cpu();
  void on_cpu_done();
  std::deque<CpuJob> cpu_jobs_;
  bool cpu_busy_ = false;

  // node_register.cpp. Thousands of ranks connect to the rendezvous at the same instant; the
  // SYNs a full port queue drops would all be retried at the same instants again. A rank whose
  // connect fails waits a random time (full jitter: uniform below 100 ms x 2^attempt, at most
  // 6.4 s) and tries again, until protocol.registration_timeout after its start.
  static constexpr std::uint64_t kRegisterRetryTimer = std::uint64_t{1} << 61;
  Endpoint rendezvous_at_;
  TimeNs started_at_ = 0;
  int register_attempts_ = 0;

  NodeCounters counters_;
};

}  // namespace tsunagi
