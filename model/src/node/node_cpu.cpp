// The node's CPU (protocol.costs): what paper 000's processes paid for relaying, select() over
// many sockets and connection set-up, which a flow-level network leaves out. Each cost is a
// job on one FIFO queue: a ComputeCmd of the job's cost on the node's host, then the job's
// action (send, relay or deliver the frame). One queue keeps every frame in the order it came,
// and a busy node delays everything after it, as a single-threaded event loop does.
#include "node/node.hpp"

namespace tsunagi {

void Node::charge(CpuJob::Kind kind, TimeNs cost, wire::Frame frame) {
  cpu_jobs_.push_back(CpuJob{kind, cost, std::move(frame)});
  run_cpu();
}

// A workload's CPU work (LMMC's calibrated routines) queues behind the protocol's own jobs.
void Node::cpu(std::uint64_t task, TimeNs duration) {
  cpu_jobs_.push_back(CpuJob{CpuJob::Kind::Workload, duration, {}, task});
  run_cpu();
}

TimeNs Node::message_cost() const {
  return config_->costs.select_per_connection * counters_.open_data_connections;
}

// Starts the next job. Free jobs at the head run at once; the first that costs time waits for
// its ComputeDone.
void Node::run_cpu() {
  while (!cpu_busy_ && !cpu_jobs_.empty()) {
    if (cpu_jobs_.front().cost > 0) {
      cpu_busy_ = true;
      emit(ComputeCmd{kCpuTaskBit, cpu_jobs_.front().cost});
      return;
    }
    on_cpu_done();
  }
}

void Node::on_cpu_done() {
  if (cpu_jobs_.empty()) return;
  CpuJob job = std::move(cpu_jobs_.front());
  cpu_jobs_.pop_front();
  cpu_busy_ = false;
  switch (job.kind) {
    case CpuJob::Kind::Pay:
      break;
    case CpuJob::Kind::Send:
      originate(std::move(job.frame));
      break;
    case CpuJob::Kind::Relay:
      relay_frame(std::move(job.frame));
      break;
    case CpuJob::Kind::Deliver:
      deliver(std::move(job.frame));
      break;
    case CpuJob::Kind::Workload:
      if (workload_) workload_->on_compute_done(*this, job.task);
      break;
  }
  run_cpu();
}

}  // namespace tsunagi
