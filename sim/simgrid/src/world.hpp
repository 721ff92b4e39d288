// What all actors of one run share: who is where, the message pool, counters, the observer.
// SimGrid runs actors one at a time in a fixed order, so plain shared state is safe and
// deterministic.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <simgrid/forward.h>

#include "message.hpp"
#include "platform.hpp"
#include "tsunagi/runner/observer.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::sim::simgrid {

struct ProcessEntry {
  Rank rank = kNoRank;  // kNoRank for the rendezvous
  std::string label;    // runner::process_label(rank)
  Endpoint endpoint;    // "<host>:<slot>"
  sg4::Host* host = nullptr;
  sg4::Mailbox* inbox = nullptr;
  bool exited = false;       // stopped: answers nothing any more
  std::uint64_t put_to = 0;  // messages ever put into its inbox (the receiver counts gets)
  scenario::Place place;     // cluster and gateway flag, for the WAN policies
  std::string site;          // cluster name ("" without clusters): StartedInput::site
  bool relay = false;
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
  int process_count() const { return static_cast<int>(processes_.size()); }
  int rendezvous_index() const { return rendezvous_index_; }
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
  // The process's [[faults]] kill time, or -1.
  TimeNs kill_time(int index) const;
  // Crossing counts of connections per cluster router (relay.max_wan_connections).
  void count_wan_connection(int from, int to);
  ProcessEntry& process(int index) { return processes_[static_cast<std::size_t>(index)]; }
  // Index of the process listening at `endpoint`, or -1 when nobody does.
  int find(const Endpoint& endpoint) const;
  // Whether the address part of `endpoint` ("<host>:<slot>") names a host of the platform.
  bool is_host_of_run(const Endpoint& endpoint) const;

  MessagePool& pool() { return pool_; }
  runner::RunObserver& observer() { return observer_; }
  const std::shared_ptr<const ProtocolConfig>& config() const { return config_; }

  // Records the exit of process `index` and tells the observer.
  void record_exit(int index, TimeNs now, const ExitCmd& exit);

  void count_probe() { ++rtt_probes_; }
  void count_throughput_probe() { ++throughput_probes_; }
  bool route_probes() const { return route_probes_; }
  // The size SimGrid is told for a message of `bytes` (see SimgridConfig::latency_only_below).
  std::uint64_t modelled_size(std::uint64_t bytes) const {
    return bytes < latency_only_below_ ? 0 : bytes;
  }
  // Round trip of `bytes` each way between two processes' hosts, uncontended, read off the
  // platform's route (the flow model's answer for an idle network).
  TimeNs route_rtt(int from, int to, std::uint32_t bytes) const;
  // One input delivered somewhere; reports progress now and then.
  void count_event(TimeNs now);

  // After the engine stopped at `clock`: reports processes that never exited and the backend
  // counts. Returns when the run ended: the last exit (exited processes still flushing their
  // streams keep SimGrid's clock going a little longer, which is not part of the run).
  TimeNs finish(TimeNs clock);
  bool all_exited_ok() const { return failure_.empty(); }
  const std::string& failure() const { return failure_; }

 private:
  void add_relays(const scenario::Scenario& scenario, const Platform& platform);

  std::vector<ProcessEntry> processes_;            // ranks, the rendezvous, relays
  int rendezvous_index_ = 0;
  int ranks_total_ = 0;
  scenario::Network network_;
  std::vector<SynBucket> buckets_;                 // one per cluster router
  std::vector<std::uint64_t> wan_connections_;     // per cluster router
  std::vector<scenario::FaultSpec> faults_;
  std::unordered_map<Endpoint, int> by_endpoint_;  // looked up only, never iterated
  MessagePool pool_;
  runner::RunObserver& observer_;
  std::shared_ptr<const ProtocolConfig> config_;
  int ranks_running_ = 0;
  TimeNs last_exit_ = 0;
  std::uint64_t rtt_probes_ = 0;
  std::uint64_t throughput_probes_ = 0;
  bool route_probes_ = false;
  std::uint64_t latency_only_below_ = 0;
  double loopback_bandwidth_ = 0;
  TimeNs loopback_latency_ = 0;
  std::uint64_t events_ = 0;
  std::uint64_t next_progress_events_ = 0;
  TimeNs next_progress_time_ = 0;
  std::string failure_;
};

}  // namespace tsunagi::sim::simgrid
