// The node as its workload sees it (WorkloadContext): sends, CPU work, reports, probes, and
// the start and end of the workload's life on this rank.
#include "node/node.hpp"

namespace tsunagi {

// A workload's CPU work (LMMC's calibrated routines) queues behind the protocol's own jobs.
void Node::cpu(std::uint64_t task, TimeNs duration) {
  cpu_.cpu_jobs_.push_back(CpuQueue::CpuJob{CpuQueue::CpuJob::Kind::Workload, duration, {}, task});
  cpu_.run_cpu();
}

void Node::send(Rank dst, std::uint32_t tag, Bytes body, std::uint64_t filler) {
  ++counters_.messages_sent;
  wire::Frame frame =
      wire::make_data(rank_, dst, messaging_.data_seq_++, {tag, std::move(body)}, filler);
  if (config_->costs.any())
    return cpu_.charge(CpuQueue::CpuJob::Kind::Send, cpu_.message_cost(), std::move(frame));
  messaging_.originate(std::move(frame));
}

void Node::on_shutdown() {
  if (phase_ == Phase::Leaving) return;
  if (workload_) workload_->on_shutdown(*this);
  nlohmann::json peers = nlohmann::json::array();  // WAN runs only: who crosses which router
  if (!site_.empty())
    for (const auto& [peer, id] : overlay_.static_conns_) peers.push_back(peer);
  nlohmann::json node_report = {{"rank", rank_},
                                {"peers", std::move(peers)},
                                {"messages_sent", counters_.messages_sent},
                                {"messages_delivered", counters_.messages_delivered},
                                {"messages_relayed", counters_.messages_relayed},
                                {"messages_undeliverable", counters_.messages_undeliverable},
                                {"frames_rejected", counters_.frames_rejected},
                                {"static_connections", overlay_.static_conns_.size()},
                                {"settled_ns", overlay_.settled_at_},
                                {"max_connections", counters_.max_data_connections},
                                {"max_closing_connections", counters_.max_closing_connections},
                                {"shortcuts_opened", counters_.shortcuts_opened},
                                {"shortcuts_accepted", counters_.shortcuts_accepted},
                                {"shortcuts_evicted", counters_.shortcuts_evicted},
                                {"rtt_probes", counters_.rtt_probes}};
  windows_.report_windows(node_report);
  report("node", std::move(node_report));
  phase_ = Phase::Leaving;
  send_frame(rendezvous_conn_, wire::make_shutdown_ack());
}

// Everyone has acknowledged the shutdown, so no peer will read a lost connection as news.
void Node::on_release() {
  if (phase_ != Phase::Leaving) return;
  phase_ = Phase::Exited;
  emit(ExitCmd{true, "", true});
}

void Node::compute(std::uint64_t task, TimeNs duration) {
  emit(ComputeCmd{task, duration});
}

void Node::report(const std::string& key, nlohmann::json value) {
  emit(ReportCmd{key, std::move(value)});
}

void Node::finished() {
  if (messaging_.workload_finished_) return;
  messaging_.workload_finished_ = true;
  send_frame(rendezvous_conn_, wire::make_done(rank_));
}

void Node::start_workload() {
  phase_ = Phase::Running;
  messaging_.flush_waiting_frames();
  workload_ = make_workload(config_->workload);
  workload_->start(*this);
  for (auto& frame : messaging_.early_data_) messaging_.on_data(std::move(frame));
  messaging_.early_data_.clear();
  for (const auto& [peer, id] : std::exchange(shortcuts_.early_shortcuts_, {}))
    if (conns_.count(id) != 0) shortcuts_.shortcut_up(peer, id, false);
}

void Node::on_start() {
  if (phase_ != Phase::Routing || !direct_routing()) return;
  start_workload();
}

void Node::probe_rtt(Rank dst, std::uint64_t probe, std::uint32_t bytes, int samples) {
  const Endpoint* to = dst >= 0 && dst < n_ ? endpoints_.find(dst) : nullptr;
  if (to == nullptr) {
    if (workload_) workload_->on_probe(*this, probe, 0, false);
    return;
  }
  inference_.start_rtt_probe(kWorkloadProbeBit | probe, *to, bytes, samples);
}

void Node::probe_throughput(Rank dst, std::uint64_t probe, std::uint64_t bytes) {
  const Endpoint* to = dst >= 0 && dst < n_ ? endpoints_.find(dst) : nullptr;
  if (to == nullptr) {
    if (workload_) workload_->on_probe(*this, probe, 0, false);
    return;
  }
  // Like iperf with -w: the buffers the run's data connections to that peer get.
  std::optional<PathEstimate> path;
  if (auto it = windows_.paths_.find(dst); it != windows_.paths_.end()) path = it->second;
  const std::optional<WindowChoice> choice = choose_window(config_->window, path);
  emit(ProbeThroughputCmd{kWorkloadProbeBit | probe, *to, bytes, choice ? choice->recv : 0});
}

void Node::on_workload_rtt(const RttMeasuredInput& in) {
  if (workload_) workload_->on_probe(*this, in.probe & ~kWorkloadProbeBit, in.rtt, in.ok);
}

void Node::on_workload_throughput(const ThroughputMeasuredInput& in) {
  if (workload_) workload_->on_probe(*this, in.probe & ~kWorkloadProbeBit, in.elapsed, in.ok);
}

}  // namespace tsunagi
