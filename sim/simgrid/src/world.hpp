// What all actors of one run share: the process table (runner/process_table.hpp), where each
// process sits in the platform, the message pool, the WAN policies and router counters.
// SimGrid runs actors one at a time in a fixed order, so plain shared state is safe and
// deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <simgrid/forward.h>

#include "completions.hpp"
#include "message.hpp"
#include "platform.hpp"
#include "small_messages.hpp"
#include "tsunagi/runner/driver/process_table.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::sim::simgrid {

// What SimGrid needs of a process beside its row in the process table (same index).
struct ActorSlot {
  sg4::Host* host = nullptr;
  scenario::Place place;  // cluster and gateway flag, for the WAN policies
};

// A router's limit on connection attempts: a token bucket of `burst` SYNs refilled at
// `per_second` (scenario::ConnectRateLimit).
struct SynBucket {
  double per_second = 0;
  double burst = 0;
  double tokens = 0;
  TimeNs refilled_at = 0;
  bool limited() const { return per_second > 0; }
  void refill(TimeNs now);
};

class World {
 public:
  World(const scenario::Scenario& scenario, runner::RunObserver& observer,
        const Platform& platform);

  // Processes: ranks in order, then the rendezvous, then the relays (scenario::relay_slots).
  runner::ProcessTable& table() { return table_; }
  int process_count() const { return table_.size(); }
  bool exited(int index) const { return table_.exited(index); }
  bool exited_before(int index, TimeNs at) const { return table_.exited_before(index, at); }
  bool has_wan() const { return !network_.clusters.empty(); }
  // What the cluster policies do to a connect from process `from` to process `to`.
  scenario::ConnectOutcome policy(int from, int to) const;
  // A SYN from `from` to `to` leaves now: takes a token from every rate-limited router it
  // crosses, or none and returns false (the SYN is dropped) when one of them is empty.
  bool pass_syn(int from, int to, TimeNs now);
  // Kernel SYN retransmission: the wait before retry `retry` (0-based), and when it gives up.
  TimeNs syn_retry_delay(int retry) const { return network_.syn.syn_rto << retry; }
  TimeNs syn_give_up() const;
  int syn_retries() const { return network_.syn.syn_retries; }
  // Crossing counts of connections per cluster router (relay.max_wan_connections).
  void count_wan_connection(int from, int to);
  ActorSlot& slot(int index) { return slots_[static_cast<std::size_t>(index)]; }
  // Index of the process listening at `endpoint`, or -1 when nobody does.
  int find(const Endpoint& endpoint) const { return table_.find(endpoint); }
  // Whether the address part of `endpoint` ("<host>:<slot>") names a host of the platform.
  bool is_host_of_run(const Endpoint& endpoint) const;

  MessagePool& pool() { return pool_; }
  // Per-process completion queues and doorbells (completions.hpp), indexed like the table.
  Completions& completions() { return *completions_; }

  bool route_probes() const { return route_probes_; }
  // `simgrid.slow_start`: stream messages pay their connection's slow start (slow_start.hpp).
  bool slow_start() const { return slow_start_; }
  // The size SimGrid is told for a message of `bytes` (see SimgridConfig::latency_only_below).
  std::uint64_t modelled_size(std::uint64_t bytes) const {
    return bytes < latency_only_below_ ? 0 : bytes;
  }
  // Small messages the adapter dates itself instead of SimGrid (small_messages.hpp).
  SmallMessages& small_messages() { return small_messages_; }
  sg4::Host* host_of(int index) const { return slots_[static_cast<std::size_t>(index)].host; }
  // Round trip of `bytes` each way between two processes' hosts, uncontended, read off the
  // platform's route (the flow model's answer for an idle network).
  TimeNs route_rtt(int from, int to, std::uint32_t bytes) const;
  // The route's one-way latency and slowest link, read off the platform (route_rtt's figures).
  struct RouteFigures {
    double latency_s = 0;   // one way
    double bottleneck = 0;  // bytes/s
  };
  RouteFigures route_figures(int from, int to) const;
  // TCP windows (world_windows.cpp, issue 15): the rate a stream from process `from` to `to`
  // may reach with these buffers (0 = the site stack's default), 0 when nothing bounds it.
  double stream_rate(int from, int to, std::uint64_t send_buffer, std::uint64_t recv_buffer) const;
  // The receive buffer the core gave connection `conn` of `process` (the sender needs it).
  void set_recv_buffer(int process, ConnId conn, std::uint64_t bytes);
  std::uint64_t recv_buffer(int process, ConnId conn) const;
  // After the engine stopped at `clock`: the table's summary (processes that never exited
  // failed) with the router counts. The run ends at the last exit: exited processes still
  // flushing their streams keep SimGrid's clock going a little longer, not part of the run.
  runner::RunSummary finish(TimeNs clock);

 private:
  void add_process(runner::ProcessRow row, sg4::Host* host, scenario::Place place);
  void add_relays(const scenario::Scenario& scenario, const Platform& platform);
  std::string site_of(int cluster) const;

  runner::ProcessTable table_;
  std::vector<ActorSlot> slots_;  // parallel to the table's rows
  scenario::Network network_;
  std::vector<SynBucket> buckets_;              // one per cluster router
  std::vector<std::uint64_t> wan_connections_;  // per cluster router
  MessagePool pool_;
  std::unique_ptr<Completions> completions_;
  std::map<std::pair<int, ConnId>, std::uint64_t> recv_buffers_;
  bool route_probes_ = false;
  bool slow_start_ = false;
  std::uint64_t latency_only_below_ = 0;
  SmallMessages small_messages_;
  double loopback_bandwidth_ = 0;
  TimeNs loopback_latency_ = 0;
};

}  // namespace tsunagi::sim::simgrid
