// The node's CPU when protocol.costs are set (cpu_queue.cpp). Jobs run one after another, each
// a compute of its cost, then its action; with every cost 0 nothing is queued. The costs of a
// job are summed saturating at CostConfig::kMaxCostNs, so no message size overflows them.
#pragma once

#include <cstdint>
#include <deque>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi {

class Node;

class CpuQueue {
 public:
  struct CpuJob {
    enum class Kind { Pay, Send, Relay, Deliver, Workload };
    Kind kind = Kind::Pay;
    TimeNs cost = 0;
    wire::Frame frame;       // Send, Relay, Deliver
    std::uint64_t task = 0;  // Workload: its on_compute_done(task)
  };
  static constexpr std::uint64_t kCpuTaskBit = std::uint64_t{1} << 62;

  explicit CpuQueue(Node& node) : node_(node) {}

  void charge(CpuJob::Kind kind, TimeNs cost, wire::Frame frame = {});
  TimeNs message_cost() const;  // select() over the open data connections
  // What one application message costs its process, on top of message_cost(): sending it
  // (originated or forwarded), receiving it (delivered or received to forward), and both for a
  // frame this node relays (protocol.costs, LogGP's o and G).
  TimeNs send_cost(const wire::Frame& frame) const;
  TimeNs receive_cost(const wire::Frame& frame) const;
  TimeNs relay_cost(const wire::Frame& frame) const;
  // The bytes a message's copy costs: its whole frame as it travels (header, payload, filler),
  // which is the size workloads give as message_bytes.
  static std::uint64_t message_bytes(const wire::Frame& frame);
  void run_cpu();
  void on_cpu_done();

  // Node's parts read each other's state, as the one class they were did.
  std::deque<CpuJob> cpu_jobs_;
  bool cpu_busy_ = false;

 private:
  Node& node_;
};

}  // namespace tsunagi
