// The node's CPU (protocol.costs): what paper 000's processes paid for relaying, select() over
// many sockets and connection set-up, which a flow-level network leaves out. Each cost is a
// job on one FIFO queue: a ComputeCmd of the job's cost on the node's host, then the job's
// action (send, relay or deliver the frame). One queue keeps every frame in the order it came,
// and a busy node delays everything after it, as a single-threaded event loop does. The host
// costs (send_overhead, receive_overhead, copy_bandwidth: LogGP's o and G) are paid here too,
// per application message; protocol frames never come here (docs/scenario-format.md).
#include <algorithm>

#include "node/node.hpp"

namespace tsunagi {

void CpuQueue::charge(CpuJob::Kind kind, TimeNs cost, wire::Frame frame) {
  cpu_jobs_.push_back(CpuJob{kind, cost, std::move(frame)});
  run_cpu();
}

namespace {

// a + b, both >= 0, capped at kMaxCostNs: two capped copies would overflow int64 otherwise.
TimeNs plus(TimeNs a, TimeNs b) {
  const TimeNs cap = CostConfig::kMaxCostNs;
  return a >= cap - std::min(b, cap) ? cap : a + b;
}

}  // namespace

TimeNs CpuQueue::message_cost() const {
  return node_.config_->costs.select_per_connection * node_.counters_.open_data_connections;
}

std::uint64_t CpuQueue::message_bytes(const wire::Frame& frame) {
  return wire::kHeaderSize + frame.payload.size() + frame.filler;
}

TimeNs CpuQueue::send_cost(const wire::Frame& frame) const {
  return plus(message_cost(), node_.config_->costs.send_cost(message_bytes(frame)));
}

TimeNs CpuQueue::receive_cost(const wire::Frame& frame) const {
  return plus(message_cost(), node_.config_->costs.receive_cost(message_bytes(frame)));
}

// Received, then sent on: o_r and o_s, two copies, the relay cost and one select() (as
// before the host costs: the frame is handled in one pass of the event loop).
TimeNs CpuQueue::relay_cost(const wire::Frame& frame) const {
  const CostConfig& costs = node_.config_->costs;
  const std::uint64_t bytes = message_bytes(frame);
  return plus(plus(costs.relay, message_cost()),
              plus(costs.receive_cost(bytes), costs.send_cost(bytes)));
}

// Starts the next job. Free jobs at the head run at once; the first that costs time waits for
// its ComputeDone.
void CpuQueue::run_cpu() {
  while (!cpu_busy_ && !cpu_jobs_.empty()) {
    if (cpu_jobs_.front().cost > 0) {
      cpu_busy_ = true;
      node_.emit(ComputeCmd{kCpuTaskBit, cpu_jobs_.front().cost});
      return;
    }
    on_cpu_done();
  }
}

void CpuQueue::on_cpu_done() {
  if (cpu_jobs_.empty()) return;
  CpuJob job = std::move(cpu_jobs_.front());
  cpu_jobs_.pop_front();
  cpu_busy_ = false;
  switch (job.kind) {
    case CpuJob::Kind::Pay:
      break;
    case CpuJob::Kind::Send:
      node_.messaging_.originate(std::move(job.frame));
      break;
    case CpuJob::Kind::Relay:
      node_.messaging_.relay_frame(std::move(job.frame));
      break;
    case CpuJob::Kind::Deliver:
      node_.messaging_.deliver(std::move(job.frame));
      break;
    case CpuJob::Kind::Workload:
      if (auto* w = node_.work_.workload()) w->on_compute_done(node_.work_, job.task);
      break;
  }
  run_cpu();
}

}  // namespace tsunagi
