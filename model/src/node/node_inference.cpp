// Node side of switch inference (paper 000 §2.1): probe every peer's RTT, keep the minimum of
// K samples, cut the sorted row, and report the peers judged on the same switch. Processes
// that registered with this node's host label are host-mates: a process knows its own machine,
// so they are near without being measured (and cost no probes).
#include <algorithm>
#include <iterator>
#include <utility>

#include "node/node.hpp"

namespace tsunagi {

void Node::on_directory(wire::DirectoryMsg msg) {
  if (phase_ != Phase::Registering) return;
  const bool on_demand = config_->directory == DirectoryMode::OnDemand;
  const bool complete =
      static_cast<int>(msg.endpoints.size()) == n_ && msg.hosts.size() == msg.endpoints.size();
  if (!complete && !(on_demand && msg.endpoints.empty())) {
    trace("bad_directory", {{"entries", msg.endpoints.size()}, {"expected", n_}});
    phase_ = Phase::Exited;
    emit(ExitCmd{false, "directory size does not match the process count"});
    return;
  }
  have_directory_ = true;
  const bool leaders = config_->inference.groups != GroupMethod::AllPairs;
  if (!inferred_plan(config_->overlay.plan) || n_ == 1 || leaders) {
    // Other plans skip the measurements; with leaders or partition the rendezvous orders them.
    if (complete) endpoints_.set_all(std::move(msg.endpoints));
    phase_ = Phase::AwaitGroups;
    send_frame(rendezvous_conn_, wire::make_rtt_report({rank_, {}, 0}));
    return;
  }
  if (!complete) {
    // All-pairs probing reads every host label and endpoint off the full directory; an empty
    // one (directory = "on_demand") has none. The loader refuses that combination; a core
    // configured with it anyway fails with the reason instead of reading past the list.
    trace("bad_directory", {{"entries", msg.endpoints.size()}, {"expected", n_}});
    phase_ = Phase::Exited;
    emit(ExitCmd{false, "all-pairs probing needs the full directory (directory = \"full\")"});
    return;
  }
  const std::string& own_host = msg.hosts[static_cast<std::size_t>(rank_)];
  for (Rank r = 1; r < n_; ++r) {
    // Start after the own rank and wrap, so nodes do not all probe rank 0 first.
    Rank peer = (rank_ + r) % n_;
    bool mate = !own_host.empty() && msg.hosts[static_cast<std::size_t>(peer)] == own_host;
    (mate ? host_mates_ : probe_targets_).push_back(peer);
  }
  std::sort(host_mates_.begin(), host_mates_.end());
  endpoints_.set_all(std::move(msg.endpoints));
  phase_ = Phase::Probing;
  rtts_.reserve(probe_targets_.size());
  if (probe_targets_.empty()) return finish_probing();
  issue_probes();
}

// Directory on demand: true when every rank's endpoint is known; otherwise asks the rendezvous
// for the missing ones (once) and the caller waits for on_endpoint_reply.
bool Node::have_endpoints(const std::vector<Rank>& ranks) {
  std::vector<Rank> ask = endpoints_.to_ask(ranks);
  if (!ask.empty()) send_frame(rendezvous_conn_, wire::make_endpoint_query({std::move(ask)}));
  for (Rank r : ranks) {
    if (endpoints_.find(r) == nullptr) return false;
  }
  return true;
}

// Everything that waited for endpoints tries again.
void Node::on_endpoint_reply(const wire::EndpointReplyMsg& reply) {
  endpoints_.learn(reply.ranks, reply.endpoints);
  if (ordered_round_) issue_probes();
  for (const wire::ProbeOrderMsg& order : std::exchange(orders_awaiting_endpoints_, {}))
    on_probe_order(order);
  open_more_static();
  std::vector<Rank> still_waiting;
  for (Rank peer : shortcuts_awaiting_endpoints_) {
    if (const Endpoint* to = endpoints_.find(peer)) {
      open_connection(*to, peer, wire::ConnPurpose::Shortcut);
    } else {
      still_waiting.push_back(peer);
    }
  }
  shortcuts_awaiting_endpoints_ = std::move(still_waiting);
}

void Node::issue_probes() {
  const int parallel = std::max(1, config_->inference.rtt_parallel);
  while (probes_in_flight_ < parallel && next_probe_ < probe_targets_.size()) {
    Rank peer = probe_targets_[next_probe_];
    const Endpoint* to = endpoints_.find(peer);
    if (to == nullptr) return;  // asked for; on_endpoint_reply carries on
    ++next_probe_;
    ++probes_in_flight_;
    ++counters_.rtt_probes;
    start_rtt_probe(static_cast<std::uint64_t>(peer), *to, 64, config_->inference.rtt_samples);
  }
}

// Scalable inference: measure exactly the ranks the rendezvous (or a window's collector) names,
// answer with the RTTs where the order came from.
void Node::on_rtt_order(wire::RttOrderMsg order, ConnId from) {
  if (ordered_round_ || phase_ == Phase::Probing || !have_directory_) return;
  ordered_round_ = order.round;
  order_conn_ = from;
  probe_targets_ = std::move(order.targets);
  next_probe_ = 0;
  rtts_.clear();
  if (probe_targets_.empty()) return finish_ordered_probing();
  if (have_endpoints(probe_targets_)) issue_probes();
}

void Node::finish_ordered_probing() {
  wire::RttColumnMsg column{*ordered_round_, {}, {}};
  for (const RttSample& s : rtts_) {
    column.peers.push_back(s.peer);
    column.rtts.push_back(static_cast<std::uint64_t>(s.rtt));
  }
  ordered_round_.reset();
  if (order_conn_ == kOwnCollector) {
    // The collector may hand this node its next order at once: the row must be out of rtts_.
    const std::vector<RttSample> row = std::exchange(rtts_, {});
    return on_collected_column(rank_, row);
  }
  rtts_.clear();
  send_frame(order_conn_, wire::make_rtt_column(column));
}

void Node::start_rtt_probe(std::uint64_t key, const Endpoint& to, std::uint32_t bytes,
                           int samples) {
  take_echo_step(rtt_sampler_.start(key, to, bytes, samples, now_));
}

void Node::take_echo_step(RttSampler::Step step) {
  if (step.echo) emit(std::move(*step.echo));
  if (!step.done) return;
  const RttMeasuredInput& end = *step.done;
  if (end.probe & kWindowProbeBit) return on_window_rtt(end);
  if (end.probe & kWorkloadProbeBit) return on_workload_rtt(end);
  on_rtt(end);
}

void Node::on_rtt(const RttMeasuredInput& in) {
  if (phase_ != Phase::Probing && !ordered_round_) return;
  --probes_in_flight_;
  Rank peer = static_cast<Rank>(in.probe);
  if (in.ok) {
    rtts_.push_back({peer, in.rtt});
  } else {
    trace("rtt_probe_failed", {{"peer", peer}});
  }
  issue_probes();
  if (probes_in_flight_ != 0 || next_probe_ < probe_targets_.size()) return;
  if (ordered_round_) return finish_ordered_probing();
  finish_probing();
}

// Tree inference: the rendezvous orders a bulk transfer; the node runs it and answers.
void Node::on_probe_order(const wire::ProbeOrderMsg& order) {
  if (!have_directory_ || order.to >= n_) {
    send_frame(rendezvous_conn_, wire::make_probe_result({order.probe, order.bytes, 0, false}));
    return;
  }
  if (!have_endpoints({order.to})) {
    orders_awaiting_endpoints_.push_back(order);
    return;
  }
  emit(ProbeThroughputCmd{order.probe, *endpoints_.find(order.to), order.bytes});
}

void Node::on_throughput(const ThroughputMeasuredInput& in) {
  send_frame(rendezvous_conn_, wire::make_probe_result({in.probe, in.bytes, in.elapsed, in.ok}));
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
  std::vector<Rank> near;
  std::set_union(view.near.begin(), view.near.end(), host_mates_.begin(), host_mates_.end(),
                 std::back_inserter(near));
  view.near = std::move(near);
  trace("rtt_view", {{"near", view.near},
                     {"host_mates", host_mates_.size()},
                     {"colocated_step", view.colocated_step}});
  phase_ = Phase::AwaitGroups;
  send_frame(rendezvous_conn_, wire::make_rtt_report({rank_, view.near, counters_.rtt_probes}));
  rtts_.clear();
  rtts_.shrink_to_fit();
}

}  // namespace tsunagi
