// The node as its workload sees it (WorkloadContext): sends, CPU work, reports, probes, and
// the start and end of the workload's life on this rank.
#include "node/node_workload.hpp"

#include "node/node.hpp"

namespace tsunagi {

Rank NodeWorkload::rank() const {
  return node_.rank_;
}

int NodeWorkload::size() const {
  return node_.n_;
}

TimeNs NodeWorkload::time_of(const Node& node) {
  return node.now_;
}

std::uint64_t NodeWorkload::seed() const {
  return node_.config_->seed;
}

const std::vector<int>& NodeWorkload::switch_group_of_rank() const {
  return node_.overlay_.group_of_rank_;
}

void NodeWorkload::arm_timer(std::uint64_t timer, TimeNs at) {
  node_.emit(ArmTimerCmd{timer, at});
}

void NodeWorkload::decision(const std::string& kind, nlohmann::json detail) {
  node_.trace(kind.c_str(), std::move(detail));
}

// A workload's CPU work (LMMC's calibrated routines) queues behind the protocol's own jobs.
void NodeWorkload::cpu(std::uint64_t task, TimeNs duration) {
  node_.cpu_.cpu_jobs_.push_back(
      CpuQueue::CpuJob{CpuQueue::CpuJob::Kind::Workload, duration, {}, task});
  node_.cpu_.run_cpu();
}

void NodeWorkload::send(Rank dst, std::uint32_t tag, Bytes body, std::uint64_t filler) {
  ++node_.counters_.messages_sent;
  wire::Frame frame = wire::make_data(node_.rank_, dst, node_.messaging_.data_seq_++,
                                      {tag, std::move(body)}, filler);
  if (node_.config_->costs.any()) {
    const TimeNs cost = node_.cpu_.send_cost(frame);
    return node_.cpu_.charge(CpuQueue::CpuJob::Kind::Send, cost, std::move(frame));
  }
  node_.messaging_.originate(std::move(frame));
}

void NodeWorkload::on_shutdown() {
  if (node_.phase_ == Node::Phase::Leaving) return;
  if (workload_) workload_->on_shutdown(*this);
  const NodeCounters& counts = node_.counters_;
  nlohmann::json peers = nlohmann::json::array();  // WAN runs only: who crosses which router
  if (!node_.site_.empty())
    for (const auto& [peer, id] : node_.overlay_.static_conns_) peers.push_back(peer);
  nlohmann::json node_report = {{"rank", node_.rank_},
                                {"peers", std::move(peers)},
                                {"messages_sent", counts.messages_sent},
                                {"messages_delivered", counts.messages_delivered},
                                {"messages_relayed", counts.messages_relayed},
                                {"messages_undeliverable", counts.messages_undeliverable},
                                {"frames_rejected", counts.frames_rejected},
                                {"static_connections", node_.overlay_.static_conns_.size()},
                                {"settled_ns", node_.overlay_.settled_at_},
                                {"max_connections", counts.max_data_connections},
                                {"max_closing_connections", counts.max_closing_connections},
                                {"shortcuts_opened", counts.shortcuts_opened},
                                {"shortcuts_accepted", counts.shortcuts_accepted},
                                {"shortcuts_evicted", counts.shortcuts_evicted},
                                {"rtt_probes", counts.rtt_probes}};
  node_.windows_.report_windows(node_report);
  report("node", std::move(node_report));
  node_.phase_ = Node::Phase::Leaving;
  node_.send_frame(node_.rendezvous_conn_, wire::make_shutdown_ack());
}

// Everyone has acknowledged the shutdown, so no peer will read a lost connection as news.
void NodeWorkload::on_release() {
  if (node_.phase_ != Node::Phase::Leaving) return;
  node_.phase_ = Node::Phase::Exited;
  node_.emit(ExitCmd{true, "", true});
}

void NodeWorkload::compute(std::uint64_t task, TimeNs duration) {
  node_.emit(ComputeCmd{task, duration});
}

void NodeWorkload::report(const std::string& key, nlohmann::json value) {
  node_.emit(ReportCmd{key, std::move(value)});
}

void NodeWorkload::finished() {
  if (node_.messaging_.workload_finished_) return;
  node_.messaging_.workload_finished_ = true;
  node_.send_frame(node_.rendezvous_conn_, wire::make_done(node_.rank_));
}

void NodeWorkload::start() {
  node_.phase_ = Node::Phase::Running;
  node_.messaging_.flush_waiting_frames();
  workload_ = make_workload(node_.config_->workload);
  workload_->start(*this);
  for (auto& frame : node_.messaging_.early_data_) node_.messaging_.on_data(std::move(frame));
  node_.messaging_.early_data_.clear();
  for (const auto& [peer, id] : std::exchange(node_.shortcuts_.early_shortcuts_, {}))
    if (node_.conns_.count(id) != 0) node_.shortcuts_.shortcut_up(peer, id, false);
}

void NodeWorkload::on_start() {
  if (node_.phase_ != Node::Phase::Routing || !node_.direct_routing()) return;
  start();
}

void NodeWorkload::probe_rtt(Rank dst, std::uint64_t probe, std::uint32_t bytes, int samples) {
  const Endpoint* to = dst >= 0 && dst < node_.n_ ? node_.endpoints_.find(dst) : nullptr;
  if (to == nullptr) {
    if (workload_) workload_->on_probe(*this, probe, 0, false);
    return;
  }
  node_.inference_.start_rtt_probe(Node::kWorkloadProbeBit | probe, *to, bytes, samples);
}

void NodeWorkload::probe_throughput(Rank dst, std::uint64_t probe, std::uint64_t bytes) {
  const Endpoint* to = dst >= 0 && dst < node_.n_ ? node_.endpoints_.find(dst) : nullptr;
  if (to == nullptr) {
    if (workload_) workload_->on_probe(*this, probe, 0, false);
    return;
  }
  // Like iperf with -w: the buffers the run's data connections to that peer get.
  std::optional<PathEstimate> path;
  if (auto it = node_.windows_.paths_.find(dst); it != node_.windows_.paths_.end())
    path = it->second;
  const std::optional<WindowChoice> choice = choose_window(node_.config_->window, path);
  node_.emit(
      ProbeThroughputCmd{Node::kWorkloadProbeBit | probe, *to, bytes, choice ? choice->recv : 0});
}

void NodeWorkload::on_rtt(const RttMeasuredInput& in) {
  if (workload_) workload_->on_probe(*this, in.probe & ~Node::kWorkloadProbeBit, in.rtt, in.ok);
}

void NodeWorkload::on_throughput(const ThroughputMeasuredInput& in) {
  if (workload_) workload_->on_probe(*this, in.probe & ~Node::kWorkloadProbeBit, in.elapsed, in.ok);
}

}  // namespace tsunagi
