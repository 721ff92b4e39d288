// A node as its window's collector (groups = "partition" with windows, docs/tree-inference.md
// "The partition method"): the rendezvous hands it the window's ranks and the endpoints of
// those that measure; it runs the window's rounds (PartitionCollector), ordering each leader
// over a connection of its own (purpose Collect) with the targets' endpoints first, and sends
// the rendezvous only the window's groups and links. Its own orders it measures itself.
//
// The leader's side is node_inference.cpp: an RttOrder is answered on the connection it came
// from (the rendezvous's, or a collector's).
#include <utility>

#include "node/node.hpp"

namespace tsunagi {

void Node::on_window_order(const wire::WindowOrderMsg& msg) {
  if (collector_ || phase_ != Phase::AwaitGroups || msg.ranks.empty() || msg.ranks[0] != rank_) {
    trace("window_order_refused", {{"ranks", msg.ranks.size()}});
    return;
  }
  std::vector<Rank> measuring;
  for (std::size_t i = 0; i < msg.ranks.size(); ++i)
    if (msg.rep_offsets[i] == 0) measuring.push_back(msg.ranks[i]);
  endpoints_.learn(measuring, msg.endpoints);
  collector_ = std::make_unique<PartitionCollector>(msg, config_->inference);
  pump_collector();
}

void Node::pump_collector() {
  for (PartitionCollector::Order& order : collector_->take_orders()) {
    if (order.from == rank_) {
      on_rtt_order({0, std::move(order.targets)}, kOwnCollector);
      continue;
    }
    const ConnId id = collect_conn(order.from);
    if (id == 0) return;  // the collector gave up (collector_failed)
    wire::EndpointReplyMsg where;
    for (Rank t : order.targets) {
      where.ranks.push_back(t);
      where.endpoints.push_back(*endpoints_.find(t));
    }
    send_frame(id, wire::make_endpoint_reply(where));
    send_frame(id, wire::make_rtt_order({0, std::move(order.targets)}));
  }
  if (!collector_->finished()) return;
  send_frame(rendezvous_conn_, wire::make_window_groups(collector_->result()));
  collector_.reset();
  for (const auto& [leader, id] : std::exchange(collect_conns_, {})) close_connection(id);
}

// The connection to a leader, opened at its first order; kept for its later ones.
ConnId Node::collect_conn(Rank leader) {
  if (auto it = collect_conns_.find(leader); it != collect_conns_.end()) return it->second;
  const Endpoint* to = endpoints_.find(leader);
  if (to == nullptr) {  // every measuring rank's endpoint came with the window order
    collector_failed(leader, "no endpoint");
    return 0;
  }
  const ConnId id = open_connection(*to, leader, wire::ConnPurpose::Collect);
  collect_conns_.emplace(leader, id);
  return id;
}

void Node::on_collected_column(Rank leader, const std::vector<RttSample>& row) {
  if (!collector_ || !collector_->on_column(leader, row)) return;
  pump_collector();
}

// A leader that cannot be reached or went away: its row is missing and the window's groups
// cannot be told. The run fails here, naming it, rather than waiting for it.
void Node::collector_failed(Rank leader, const std::string& why) {
  if (!collector_) return;
  trace("window_leader_lost", {{"leader", leader}, {"reason", why}});
  collector_.reset();
  phase_ = Phase::Exited;
  emit(ExitCmd{false, "window leader rank " + std::to_string(leader) + " lost: " + why});
}

}  // namespace tsunagi
