// Node side of TCP windows (issue 15, paper 004): the socket buffers of every data connection
// are the core's decision (protocol.window). "default" leaves them to the host stack; a size
// gives every data connection that much; "auto" first measures each plan peer — K RTT probes
// and one bulk transfer made with the largest buffers it would grant — and sizes the buffers
// from that bandwidth-delay product. The buffers held are summed for result.json: the memory
// that makes a connection budget matter on long fat networks.
#include "node/node.hpp"

namespace tsunagi {

// The plan's peers are measured one after another: transfers started together would share
// links and each read a fraction of the path.
void Node::start_windowing() {
  phase_ = Phase::Windowing;
  window_targets_ = plan_;
  next_window_ = 0;
  measure_next_window();
}

void Node::measure_next_window() {
  while (next_window_ < window_targets_.size()) {
    const Rank peer = window_targets_[next_window_];
    if (const Endpoint* to = endpoints_.find(peer)) {
      ++counters_.rtt_probes;
      start_rtt_probe(kWindowProbeBit | static_cast<std::uint64_t>(peer), *to, 64,
                      config_->window.rtt_samples);
      return;
    }
    // No endpoint (directory on demand): this peer keeps the host's default buffers.
    trace("window", {{"peer", peer}, {"mode", "auto"}, {"measured", false}});
    ++next_window_;
  }
  start_static_connects();
  for (ConnId id : std::exchange(awaiting_window_, {})) {
    auto it = conns_.find(id);
    if (it != conns_.end()) size_window(id, it->second.peer);
  }
}

void Node::on_window_rtt(const RttMeasuredInput& in) {
  if (phase_ != Phase::Windowing || next_window_ >= window_targets_.size()) return;
  const Rank peer = window_targets_[next_window_];
  if (!in.ok) {
    trace("window", {{"peer", peer}, {"mode", "auto"}, {"measured", false}});
    ++next_window_;
    return measure_next_window();
  }
  window_rtt_ = in.rtt;
  emit(ProbeThroughputCmd{kWindowProbeBit | static_cast<std::uint64_t>(peer),
                          *endpoints_.find(peer), config_->window.probe_bytes,
                          config_->window.max_bytes});
}

void Node::on_window_throughput(const ThroughputMeasuredInput& in) {
  if (phase_ != Phase::Windowing || next_window_ >= window_targets_.size()) return;
  const Rank peer = window_targets_[next_window_++];
  if (in.ok) {
    const PathEstimate path{window_rtt_, probe_rate(in.bytes, in.elapsed, window_rtt_)};
    paths_[peer] = path;
    // The sizes come from measured times, which differ between backends and runs: they go
    // under "timing", so `tsunagi compare` checks that the decision was made, not its bytes.
    trace("window", {{"peer", peer},
                     {"mode", "auto"},
                     {"measured", true},
                     {"timing",
                      {{"rtt_ns", path.rtt},
                       {"bytes_per_second", path.bytes_per_second},
                       {"buffer_bytes", auto_window(config_->window, path)}}}});
  } else {
    trace("window", {{"peer", peer}, {"mode", "auto"}, {"measured", false}});
  }
  measure_next_window();
}

// Gives a data connection its buffers. An accepted connection whose peer this node is still
// going to measure waits for the measurement.
void Node::size_window(ConnId id, Rank peer) {
  const WindowConfig& config = config_->window;
  if (config.mode == WindowMode::Default) return;
  std::optional<PathEstimate> path;
  if (auto it = paths_.find(peer); it != paths_.end()) path = it->second;
  if (config.mode == WindowMode::Auto && !path && phase_ == Phase::Windowing) {
    awaiting_window_.push_back(id);
    return;
  }
  const std::optional<WindowChoice> choice = choose_window(config, path);
  if (!choice) return;
  Conn& c = conns_.at(id);
  window_bytes_held_ -= c.window_bytes;
  c.window_bytes = choice->send + choice->recv;
  window_bytes_held_ += c.window_bytes;
  max_window_bytes_held_ = std::max(max_window_bytes_held_, window_bytes_held_);
  emit(SetWindowCmd{id, choice->send, choice->recv});
}

void Node::release_window(Conn& c) {
  window_bytes_held_ -= c.window_bytes;
  c.window_bytes = 0;
}

void Node::report_windows(nlohmann::json& node_report) const {
  node_report["window_mode"] = to_string(config_->window.mode);
  node_report["window_bytes_held"] = window_bytes_held_;
  node_report["max_window_bytes_held"] = max_window_bytes_held_;
}

// ---- probes a workload asks for (the indices workload: ping and iperf beside its messages)

void Node::probe_rtt(Rank dst, std::uint64_t probe, std::uint32_t bytes, int samples) {
  const Endpoint* to = dst >= 0 && dst < n_ ? endpoints_.find(dst) : nullptr;
  if (to == nullptr) {
    if (workload_) workload_->on_probe(*this, probe, 0, false);
    return;
  }
  start_rtt_probe(kWorkloadProbeBit | probe, *to, bytes, samples);
}

void Node::probe_throughput(Rank dst, std::uint64_t probe, std::uint64_t bytes) {
  const Endpoint* to = dst >= 0 && dst < n_ ? endpoints_.find(dst) : nullptr;
  if (to == nullptr) {
    if (workload_) workload_->on_probe(*this, probe, 0, false);
    return;
  }
  // Like iperf with -w: the buffers the run's data connections to that peer get.
  std::optional<PathEstimate> path;
  if (auto it = paths_.find(dst); it != paths_.end()) path = it->second;
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
