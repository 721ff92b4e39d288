// The node's CPU (protocol.costs): what paper 000's processes paid for relaying, select() over
// many sockets and connection set-up, which a flow-level network leaves out. Each cost is a
// job on one FIFO queue: a ComputeCmd of the job's cost on the node's host, then the job's
// action (send, relay or deliver the frame). One queue keeps every frame in the order it came,
// and a busy node delays everything after it, as a single-threaded event loop does.
#include "node/node.hpp"

namespace tsunagi {

void CpuQueue::charge(CpuJob::Kind kind, TimeNs cost, wire::Frame frame) {
  cpu_jobs_.push_back(CpuJob{kind, cost, std::move(frame)});
  run_cpu();
}

TimeNs CpuQueue::message_cost() const {
  return node_.config_->costs.select_per_connection * node_.counters_.open_data_connections;
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
