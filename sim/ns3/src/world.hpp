// What all processes of one ns-3 run share: who listens where, exits, counters, the observer.
// ns-3 runs one event at a time, so plain shared state is safe and deterministic.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <ns3/ipv4-address.h>
#include <ns3/node.h>
#include <ns3/ptr.h>

#include "topology.hpp"
#include "tsunagi/runner/observer.hpp"

namespace tsunagi::sim::ns3 {

class ProcessHost;

struct ProcessEntry {
  Rank rank = kNoRank;  // kNoRank for the rendezvous
  std::string label;    // runner::process_label(rank)
  std::string host;     // scenario host name, "rendezvous" for the rendezvous
  std::string site;     // cluster name, "" without clusters
  bool relay = false;   // a relay daemon (labelled by its host)
  ::ns3::Ptr<::ns3::Node> node;
  ::ns3::Ipv4Address address;
  std::uint16_t port = 0;
  Endpoint endpoint;  // "<address>:<port>"
  bool exited = false;
  ProcessHost* process = nullptr;
};

class World {
 public:
  World(const Ns3Spec& spec, runner::RunObserver& observer, const Topology& topology);

  int process_count() const { return static_cast<int>(processes_.size()); }
  int rendezvous_index() const { return process_count() - 1; }
  int rank_count() const { return rank_count_; }  // ranks come first, then relays, then rendezvous
  ProcessEntry& process(int index) { return processes_[static_cast<std::size_t>(index)]; }
  // Index of the process whose endpoint this is, or -1.
  int find(const Endpoint& endpoint) const;
  // Whether the address part of `endpoint` ("<address>:<port>") is a process's node's address.
  bool is_address_of_run(const Endpoint& endpoint) const;

  runner::RunObserver& observer() { return observer_; }
  const std::shared_ptr<const ProtocolConfig>& config() const { return config_; }

  // Records an exit and tells the observer; when everyone has exited, the simulation stops
  // (the rendezvous releases everyone at the end of the run, so nobody waits for a backend).
  void record_exit(int index, TimeNs now, const ExitCmd& exit);

  void count_probe() { ++rtt_probes_; }
  void count_throughput_probe() { ++throughput_probes_; }
  void count_event(TimeNs now);

  // After Simulator::Run returned at `clock`: reports processes that never exited and the
  // backend counts. Returns the time of the last exit.
  TimeNs finish(TimeNs clock);
  bool all_exited_ok() const { return failure_.empty(); }
  const std::string& failure() const { return failure_; }

 private:
  std::vector<ProcessEntry> processes_;            // ranks in order, then the rendezvous
  std::unordered_map<Endpoint, int> by_endpoint_;  // looked up only, never iterated
  runner::RunObserver& observer_;
  std::shared_ptr<const ProtocolConfig> config_;
  int rank_count_ = 0;
  int ranks_running_ = 0;
  int running_ = 0;
  TimeNs last_exit_ = 0;
  std::uint64_t rtt_probes_ = 0;
  std::uint64_t throughput_probes_ = 0;
  std::uint64_t events_ = 0;
  std::uint64_t next_progress_events_ = 0;
  TimeNs next_progress_time_ = 0;
  std::string failure_;
};

}  // namespace tsunagi::sim::ns3
