// Node side of switch inference (paper 000 §2.1): probe every peer's RTT, keep the minimum of
// K samples, cut the sorted row, and report the peers judged on the same switch. Processes
// that registered with this node's host label are host-mates: a process knows its own machine,
// so they are near without being measured (and cost no probes).
#include <algorithm>
#include <iterator>
#include <utility>

#include "node/node.hpp"

namespace tsunagi {

void NodeInference::on_directory(wire::DirectoryMsg msg) {
  if (node_.phase_ != Node::Phase::Registering) return;
  const bool on_demand = node_.config_->directory == DirectoryMode::OnDemand;
  const bool complete = static_cast<int>(msg.endpoints.size()) == node_.n_ &&
                        msg.hosts.size() == msg.endpoints.size();
  if (!complete && !(on_demand && msg.endpoints.empty())) {
    node_.trace("bad_directory", {{"entries", msg.endpoints.size()}, {"expected", node_.n_}});
    node_.phase_ = Node::Phase::Exited;
    node_.emit(ExitCmd{false, "directory size does not match the process count"});
    return;
  }
  have_directory_ = true;
  const bool leaders = node_.config_->inference.groups != GroupMethod::AllPairs;
  if (!inferred_plan(node_.config_->overlay.plan) || node_.n_ == 1 || leaders) {
    // Other plans skip the measurements; with leaders or partition the rendezvous orders them.
    if (complete) node_.endpoints_.set_all(std::move(msg.endpoints));
    node_.phase_ = Node::Phase::AwaitGroups;
    node_.send_frame(node_.rendezvous_conn_, wire::make_rtt_report({node_.rank_, {}, 0}));
    return;
  }
  if (!complete) {
    // All-pairs probing reads every host label and endpoint off the full directory; an empty
    // one (directory = "on_demand") has none. The loader refuses that combination; a core
    // configured with it anyway fails with the reason instead of reading past the list.
    node_.trace("bad_directory", {{"entries", msg.endpoints.size()}, {"expected", node_.n_}});
    node_.phase_ = Node::Phase::Exited;
    node_.emit(ExitCmd{false, "all-pairs probing needs the full directory (directory = \"full\")"});
    return;
  }
  const std::string& own_host = msg.hosts[static_cast<std::size_t>(node_.rank_)];
  for (Rank r = 1; r < node_.n_; ++r) {
    // Start after the own rank and wrap, so nodes do not all probe rank 0 first.
    Rank peer = (node_.rank_ + r) % node_.n_;
    bool mate = !own_host.empty() && msg.hosts[static_cast<std::size_t>(peer)] == own_host;
    (mate ? host_mates_ : probe_targets_).push_back(peer);
  }
  std::sort(host_mates_.begin(), host_mates_.end());
  node_.endpoints_.set_all(std::move(msg.endpoints));
  node_.phase_ = Node::Phase::Probing;
  rtts_.reserve(probe_targets_.size());
  if (probe_targets_.empty()) return finish_probing();
  issue_probes();
}

void NodeInference::issue_probes() {
  const int parallel = std::max(1, node_.config_->inference.rtt_parallel);
  while (probes_in_flight_ < parallel && next_probe_ < probe_targets_.size()) {
    Rank peer = probe_targets_[next_probe_];
    const Endpoint* to = node_.endpoints_.find(peer);
    if (to == nullptr) return;  // asked for; on_endpoint_reply carries on
    ++next_probe_;
    ++probes_in_flight_;
    ++node_.counters_.rtt_probes;
    start_rtt_probe(static_cast<std::uint64_t>(peer), *to, 64,
                    node_.config_->inference.rtt_samples);
  }
}

// Scalable inference: measure exactly the ranks the rendezvous (or a window's collector) names,
// answer with the RTTs where the order came from.
void NodeInference::on_rtt_order(wire::RttOrderMsg order, ConnId from) {
  if (ordered_round_ || node_.phase_ == Node::Phase::Probing || !have_directory_) return;
  ordered_round_ = order.round;
  order_conn_ = from;
  probe_targets_ = std::move(order.targets);
  next_probe_ = 0;
  rtts_.clear();
  if (probe_targets_.empty()) return finish_ordered_probing();
  if (node_.have_endpoints(probe_targets_)) issue_probes();
}

void NodeInference::finish_ordered_probing() {
  wire::RttColumnMsg column{*ordered_round_, {}, {}};
  for (const RttSample& s : rtts_) {
    column.peers.push_back(s.peer);
    column.rtts.push_back(static_cast<std::uint64_t>(s.rtt));
  }
  ordered_round_.reset();
  if (order_conn_ == NodeCollector::kOwnCollector) {
    // The collector may hand this node its next order at once: the row must be out of rtts_.
    const std::vector<RttSample> row = std::exchange(rtts_, {});
    return node_.collecting_.on_collected_column(node_.rank_, row);
  }
  rtts_.clear();
  node_.send_frame(order_conn_, wire::make_rtt_column(column));
}

void NodeInference::start_rtt_probe(std::uint64_t key, const Endpoint& to, std::uint32_t bytes,
                                    int samples) {
  take_echo_step(rtt_sampler_.start(key, to, bytes, samples, node_.now_));
}

void NodeInference::take_echo_step(RttSampler::Step step) {
  if (step.echo) node_.emit(std::move(*step.echo));
  if (!step.done) return;
  const RttMeasuredInput& end = *step.done;
  if (end.probe & Node::kWindowProbeBit) return node_.windows_.on_window_rtt(end);
  if (end.probe & Node::kWorkloadProbeBit) return node_.work_.on_rtt(end);
  on_rtt(end);
}

void NodeInference::on_rtt(const RttMeasuredInput& in) {
  if (node_.phase_ != Node::Phase::Probing && !ordered_round_) return;
  --probes_in_flight_;
  Rank peer = static_cast<Rank>(in.probe);
  if (in.ok) {
    rtts_.push_back({peer, in.rtt});
  } else {
    node_.trace("rtt_probe_failed", {{"peer", peer}});
  }
  issue_probes();
  if (probes_in_flight_ != 0 || next_probe_ < probe_targets_.size()) return;
  if (ordered_round_) return finish_ordered_probing();
  finish_probing();
}

// Tree inference: the rendezvous orders a bulk transfer; the node runs it and answers.
void NodeInference::on_probe_order(const wire::ProbeOrderMsg& order) {
  if (!have_directory_ || order.to >= node_.n_) {
    node_.send_frame(node_.rendezvous_conn_,
                     wire::make_probe_result({order.probe, order.bytes, 0, false}));
    return;
  }
  if (!node_.have_endpoints({order.to})) {
    orders_awaiting_endpoints_.push_back(order);
    return;
  }
  node_.emit(ProbeThroughputCmd{order.probe, *node_.endpoints_.find(order.to), order.bytes});
}

void NodeInference::on_throughput(const ThroughputMeasuredInput& in) {
  node_.send_frame(node_.rendezvous_conn_,
                   wire::make_probe_result({in.probe, in.bytes, in.elapsed, in.ok}));
}

void NodeInference::finish_probing() {
  if (node_.rank_ == 0) {
    // One node's whole row, for paper 000 Fig. 4; sorted like the figure.
    auto sorted = rtts_;
    std::sort(sorted.begin(), sorted.end(), [](const RttSample& a, const RttSample& b) {
      return a.rtt != b.rtt ? a.rtt < b.rtt : a.peer < b.peer;
    });
    nlohmann::json row = nlohmann::json::array();
    for (const auto& s : sorted) row.push_back({s.peer, s.rtt});
    node_.work_.report("rtt_row", {{"rank", node_.rank_}, {"sorted_peer_rtt_ns", std::move(row)}});
  }
  SwitchView view = infer_own_switch(rtts_, node_.config_->inference);
  std::vector<Rank> near;
  std::set_union(view.near.begin(), view.near.end(), host_mates_.begin(), host_mates_.end(),
                 std::back_inserter(near));
  view.near = std::move(near);
  node_.trace("rtt_view", {{"near", view.near},
                           {"host_mates", host_mates_.size()},
                           {"colocated_step", view.colocated_step}});
  node_.phase_ = Node::Phase::AwaitGroups;
  node_.send_frame(node_.rendezvous_conn_,
                   wire::make_rtt_report({node_.rank_, view.near, node_.counters_.rtt_probes}));
  rtts_.clear();
  rtts_.shrink_to_fit();
}

}  // namespace tsunagi
