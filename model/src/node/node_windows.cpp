// Node side of TCP windows (issue 15, paper 004): the socket buffers of every data connection
// are the core's decision (protocol.window). "default" leaves them to the host stack; a size
// gives every data connection that much; "auto" first measures each plan peer — K RTT probes
// and bulk transfers of growing sizes made with the largest buffers it would grant, whose
// differences cancel slow start (window/path_meter.hpp) — and sizes the buffers from that
// bandwidth-delay product. The buffers held are summed for result.json: the memory that makes
// a connection budget matter on long fat networks.
#include <algorithm>

#include "node/node.hpp"
#include "tsunagi/model/rng.hpp"

namespace tsunagi {

// The plan's peers are measured one after another: transfers started together would share
// links and each read a fraction of the path. Nodes measure at once, though, and two nodes
// measuring the same peer share its link. So the round over all peers is made
// PathMeter::kPasses times and each peer keeps its best pass: the first pass starts with the
// peer after the node's own rank (rank + 1, rank + 2, ... around), so that the first probes go
// to different peers instead of all to the lowest rank; later passes take the peers in an
// order drawn from the run's seed and the rank, so that overlaps do not repeat pass after pass.
void NodeWindows::start_windowing() {
  node_.phase_ = Node::Phase::Windowing;
  std::vector<Rank> round = node_.overlay_.plan_;
  std::sort(round.begin(), round.end());
  std::rotate(round.begin(), std::upper_bound(round.begin(), round.end(), node_.rank_),
              round.end());
  window_targets_ = round;
  Rng rng(node_.config_->seed ^ (static_cast<std::uint64_t>(node_.rank_) << 24) ^
          0x77696e646f77ULL);
  for (int pass = 1; pass < PathMeter::kPasses; ++pass) {
    for (std::size_t i = round.size(); i > 1; --i)  // Fisher-Yates, with the core's generator
      std::swap(round[i - 1], round[rng.uniform(i)]);
    window_targets_.insert(window_targets_.end(), round.begin(), round.end());
  }
  window_round_ = round.size();
  next_window_ = 0;
  measure_next_window();
}

// Each peer is measured in its turn: the node asks the rendezvous and starts once granted
// (on_turn), so no two nodes measure one peer at once (rendezvous/probe_turns.hpp).
void NodeWindows::measure_next_window() {
  while (next_window_ < window_targets_.size()) {
    const Rank peer = window_targets_[next_window_];
    if (node_.endpoints_.find(peer) != nullptr) {
      turn_ = peer;
      node_.send_frame(node_.rendezvous_conn_, wire::make_probe_turn(node_.rank_, peer, false));
      return;
    }
    // No endpoint (directory on demand): this peer keeps the host's default buffers.
    if (last_window_pass()) trace_window(peer);
    ++next_window_;
  }
  node_.overlay_.start_static_connects();
  for (ConnId id : std::exchange(awaiting_window_, {})) {
    auto it = node_.conns_.find(id);
    if (it != node_.conns_.end()) size_window(id, it->second.peer);
  }
}

// The turn to measure `target` is this node's (`to`: the rendezvous names the grantee). A grant
// for a turn not asked for is ignored: the rendezvous grants only what was asked.
void NodeWindows::on_turn(Rank to, Rank target) {
  if (node_.phase_ != Node::Phase::Windowing || to != node_.rank_ || turn_ != target ||
      next_window_ >= window_targets_.size() || window_targets_[next_window_] != target)
    return;
  const Endpoint* at = node_.endpoints_.find(target);
  if (at == nullptr) return window_measured(target);
  ++node_.counters_.rtt_probes;
  node_.inference_.start_rtt_probe(Node::kWindowProbeBit | static_cast<std::uint64_t>(target), *at,
                                   64, node_.config_->window.rtt_samples);
}

void NodeWindows::on_window_rtt(const RttMeasuredInput& in) {
  if (node_.phase_ != Node::Phase::Windowing || next_window_ >= window_targets_.size()) return;
  const Rank peer = window_targets_[next_window_];
  if (!in.ok) {
    window_measured(peer);
    return;
  }
  window_meter_.emplace(node_.config_->window, in.rtt);
  probe_window_path(peer);
}

// The meter's next throughput probe, made with the largest buffers the node would grant.
void NodeWindows::probe_window_path(Rank peer) {
  node_.emit(ProbeThroughputCmd{Node::kWindowProbeBit | static_cast<std::uint64_t>(peer),
                                *node_.endpoints_.find(peer), window_meter_->next_bytes(),
                                window_meter_->next_window()});
}

void NodeWindows::on_window_throughput(const ThroughputMeasuredInput& in) {
  if (node_.phase_ != Node::Phase::Windowing || next_window_ >= window_targets_.size() ||
      !window_meter_)
    return;
  const Rank peer = window_targets_[next_window_];
  if (in.ok)
    window_meter_->measured(in.bytes, in.elapsed);
  else
    window_meter_->failed();
  if (!window_meter_->done()) return probe_window_path(peer);
  window_measured(peer);
}

bool NodeWindows::last_window_pass() const {
  return next_window_ + window_round_ >= window_targets_.size();
}

// One pass over `peer` is over (the meter absent: its RTT probe failed). Every pass keeps the
// best rate and the lowest RTT; the last one traces the decision.
void NodeWindows::window_measured(Rank peer) {
  std::optional<PathEstimate> path = window_meter_ ? window_meter_->estimate() : std::nullopt;
  if (path) {
    window_passes_[peer].push_back(path->bytes_per_second);
    if (auto it = paths_.find(peer); it != paths_.end()) {
      path->rtt = std::min(path->rtt, it->second.rtt);
      path->bytes_per_second = std::max(path->bytes_per_second, it->second.bytes_per_second);
    }
    paths_[peer] = *path;
  }
  if (turn_ == peer) {  // the next node waiting for this peer may start
    node_.send_frame(node_.rendezvous_conn_, wire::make_probe_turn(node_.rank_, peer, true));
    turn_.reset();
  }
  const bool last = last_window_pass();
  ++next_window_;
  window_meter_.reset();
  if (last) trace_window(peer);
  measure_next_window();
}

void NodeWindows::trace_window(Rank peer) {
  auto it = paths_.find(peer);
  if (it == paths_.end()) {
    node_.trace("window", {{"peer", peer}, {"mode", "auto"}, {"measured", false}});
    return;
  }
  const PathEstimate& path = it->second;
  // The sizes come from measured times, which differ between backends and runs: they go under
  // "timing", so `tsunagi compare` checks that the decision was made, not its bytes.
  node_.trace("window", {{"peer", peer},
                         {"mode", "auto"},
                         {"measured", true},
                         {"timing",
                          {{"rtt_ns", path.rtt},
                           {"bytes_per_second", path.bytes_per_second},
                           {"buffer_bytes", auto_window(node_.config_->window, path)},
                           {"passes", window_passes_[peer]}}}});
}

// Gives a data connection its buffers. Under auto, a connection accepted while the node is
// still measuring waits for the last pass.
void NodeWindows::size_window(ConnId id, Rank peer) {
  const WindowConfig& config = node_.config_->window;
  if (config.mode == WindowMode::Default) return;
  std::optional<PathEstimate> path;
  if (auto it = paths_.find(peer); it != paths_.end()) path = it->second;
  if (config.mode == WindowMode::Auto && node_.phase_ == Node::Phase::Windowing) {
    awaiting_window_.push_back(id);
    return;
  }
  const std::optional<WindowChoice> choice = choose_window(config, path);
  if (!choice) return;
  NodeConn& c = node_.conns_.at(id);
  window_bytes_held_ -= c.window_bytes;
  c.window_bytes = choice->send + choice->recv;
  window_bytes_held_ += c.window_bytes;
  max_window_bytes_held_ = std::max(max_window_bytes_held_, window_bytes_held_);
  node_.emit(SetWindowCmd{id, choice->send, choice->recv});
}

void NodeWindows::release_window(NodeConn& c) {
  window_bytes_held_ -= c.window_bytes;
  c.window_bytes = 0;
}

void NodeWindows::report_windows(nlohmann::json& node_report) const {
  node_report["window_mode"] = to_string(node_.config_->window.mode);
  node_report["window_bytes_held"] = window_bytes_held_;
  node_report["max_window_bytes_held"] = max_window_bytes_held_;
}

}  // namespace tsunagi
