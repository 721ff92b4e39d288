// Node side of switch inference (paper 000 §2.1): probe every peer's RTT, keep the minimum of
// K samples, cut the sorted row, and report the peers judged on the same switch.
#include "node/node.hpp"

namespace tsunagi {

void Node::on_directory(wire::DirectoryMsg msg) {
  if (phase_ != Phase::Registering) return;
  if (static_cast<int>(msg.endpoints.size()) != n_) {
    trace("bad_directory", {{"entries", msg.endpoints.size()}, {"expected", n_}});
    phase_ = Phase::Exited;
    emit(ExitCmd{false, "directory size does not match the process count"});
    return;
  }
  directory_ = std::move(msg.endpoints);
  if (config_->overlay.plan != PlanKind::TopologyAware || n_ == 1) {
    // Plans that ignore the topology skip the measurements entirely.
    phase_ = Phase::AwaitGroups;
    send_frame(rendezvous_conn_, wire::make_rtt_report({rank_, {}, 0}));
    return;
  }
  phase_ = Phase::Probing;
  rtts_.reserve(static_cast<std::size_t>(n_ - 1));
  issue_probes();
}

void Node::issue_probes() {
  // Probe rank+1, rank+2, ... (wrapping) so that nodes do not all hit rank 0 first.
  const int parallel = std::max(1, config_->inference.rtt_parallel);
  while (probes_in_flight_ < parallel && next_probe_offset_ < n_) {
    Rank peer = (rank_ + next_probe_offset_) % n_;
    ++next_probe_offset_;
    ++probes_in_flight_;
    ++counters_.rtt_probes;
    emit(ProbeRttCmd{static_cast<std::uint64_t>(peer), directory_[static_cast<std::size_t>(peer)],
                     std::max(1, config_->inference.rtt_samples), 64});
  }
}

void Node::on_rtt(const RttMeasuredInput& in) {
  if (phase_ != Phase::Probing) return;
  --probes_in_flight_;
  Rank peer = static_cast<Rank>(in.probe);
  if (in.ok) {
    rtts_.push_back({peer, in.rtt});
  } else {
    trace("rtt_probe_failed", {{"peer", peer}});
  }
  issue_probes();
  if (probes_in_flight_ == 0 && next_probe_offset_ >= n_) finish_probing();
}

void Node::finish_probing() {
  if (rank_ == 0) {
    // One node's whole row, for paper 000 Fig. 4; sorted like the figure.
    auto sorted = rtts_;
    std::sort(sorted.begin(), sorted.end(), [](const RttSample& a, const RttSample& b) {
      return a.rtt != b.rtt ? a.rtt < b.rtt : a.peer < b.peer;
    });
    nlohmann::json row = nlohmann::json::array();
    for (const auto& s : sorted) row.push_back({s.peer, s.rtt});
    report("rtt_row", {{"rank", rank_}, {"sorted_peer_rtt_ns", std::move(row)}});
  }
  SwitchView view = infer_own_switch(rtts_, config_->inference);
  trace("rtt_view", {{"near", view.near}, {"colocated_step", view.colocated_step}});
  phase_ = Phase::AwaitGroups;
  send_frame(rendezvous_conn_, wire::make_rtt_report({rank_, view.near, counters_.rtt_probes}));
  rtts_.clear();
  rtts_.shrink_to_fit();
}

}  // namespace tsunagi
