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

void NodeCollector::on_window_order(const wire::WindowOrderMsg& msg) {
  if (collector_ || node_.phase_ != Node::Phase::AwaitGroups || msg.ranks.empty() ||
      msg.ranks[0] != node_.rank_) {
    node_.trace("window_order_refused", {{"ranks", msg.ranks.size()}});
    return;
  }
  std::vector<Rank> measuring;
  for (std::size_t i = 0; i < msg.ranks.size(); ++i)
    if (msg.rep_offsets[i] == 0) measuring.push_back(msg.ranks[i]);
  node_.endpoints_.learn(measuring, msg.endpoints);
  collector_ = std::make_unique<PartitionCollector>(msg, node_.config_->inference);
  pump_collector();
}

// The collector is a host of its window, probed by every leader, so its own link must be quiet
// while they probe: were its connects, handshakes and the leaders' endpoint lists crossing it,
// RTTs to it would read queueing, not the network (a 20 us switch-mate read 22.6 us beside
// 29 us to the next switch, below the 1.3x step, and two switches merged: random tree seed 1024
// with windows of 4 hosts). So it leads nothing itself (PartitionCollector), and orders go out
// in waves: a wave starts only when every order of the one before has been answered, and in
// two steps. Each leader gets its targets' endpoints and an empty order (kPrimeRound), which it
// answers at once; when every leader of the wave has answered, the bulk has crossed the link,
// and the orders themselves (a few bytes: the targets as runs) go out together. What still
// crosses the collector's link while leaders probe is the columns of leaders done first.
void NodeCollector::pump_collector() {
  for (PartitionCollector::Order& order : collector_->take_orders()) {
    if (order.from != node_.rank_ && collect_conn(order.from) == 0) return;  // collector_failed
    collect_orders_.push_back(std::move(order));
  }
  if (collect_out_ == 0) prime_leaders();
  if (!collector_->finished()) return;
  node_.send_frame(node_.rendezvous_conn_, wire::make_window_groups(collector_->result()));
  collector_.reset();
  collect_open_.clear();
  collect_primed_.clear();
  for (const auto& [leader, id] : std::exchange(collect_conns_, {})) node_.close_connection(id);
}

// Endpoints and the empty order to every leader of the batch whose connection is up.
void NodeCollector::prime_leaders() {
  for (const PartitionCollector::Order& order : collect_orders_) {
    const Rank leader = order.from;
    if (leader == node_.rank_ || !collect_open_.count(leader) || collect_primed_.count(leader))
      continue;
    wire::EndpointReplyMsg where;
    for (Rank t : order.targets) {
      where.ranks.push_back(t);
      where.endpoints.push_back(*node_.endpoints_.find(t));
    }
    const ConnId id = collect_conns_.at(leader);
    node_.send_frame(id, wire::make_endpoint_reply(where));
    node_.send_frame(id, wire::make_rtt_order({kPrimeRound, {}}));
    collect_primed_.emplace(leader, false);
  }
  release_orders();
}

void NodeCollector::release_orders() {
  for (const PartitionCollector::Order& order : collect_orders_) {
    if (order.from == node_.rank_) continue;
    const auto primed = collect_primed_.find(order.from);
    if (primed == collect_primed_.end() || !primed->second) return;
  }
  std::optional<std::vector<Rank>> own;
  for (PartitionCollector::Order& order : std::exchange(collect_orders_, {})) {
    if (order.from == node_.rank_) {
      own = std::move(order.targets);
      continue;
    }
    collect_primed_.erase(order.from);  // its next order needs its own endpoints again
    node_.send_frame(collect_conns_.at(order.from),
                     wire::make_rtt_order({0, std::move(order.targets)}));
    ++collect_out_;
  }
  if (own) {
    ++collect_out_;
    node_.inference_.on_rtt_order({0, std::move(*own)}, kOwnCollector);
  }
}

void NodeCollector::collect_conn_open(Rank leader) {
  collect_open_.insert(leader);
  if (collector_ && collect_out_ == 0) prime_leaders();
}

// A leader's answer on the connection this node opened to it: ready (the empty order), or its
// row.
void NodeCollector::on_collect_answer(Rank leader, const wire::RttColumnMsg& column) {
  if (!collector_) return;
  if (column.round == kPrimeRound) {
    const auto primed = collect_primed_.find(leader);
    if (primed == collect_primed_.end() || primed->second) return;
    primed->second = true;
    return release_orders();
  }
  std::vector<RttSample> row;
  for (std::size_t i = 0; i < column.peers.size(); ++i)
    row.push_back({column.peers[i], static_cast<TimeNs>(column.rtts[i])});
  on_collected_column(leader, row);
}

// The connection to a leader, opened at its first order; kept for its later ones.
ConnId NodeCollector::collect_conn(Rank leader) {
  if (auto it = collect_conns_.find(leader); it != collect_conns_.end()) return it->second;
  const Endpoint* to = node_.endpoints_.find(leader);
  if (to == nullptr) {  // every measuring rank's endpoint came with the window order
    collector_failed(leader, "no endpoint");
    return 0;
  }
  const ConnId id = node_.open_connection(*to, leader, wire::ConnPurpose::Collect);
  collect_conns_.emplace(leader, id);
  return id;
}

void NodeCollector::on_collected_column(Rank leader, const std::vector<RttSample>& row) {
  if (!collector_ || !collector_->on_column(leader, row)) return;
  --collect_out_;
  pump_collector();
}

// A leader that cannot be reached or went away: its row is missing and the window's groups
// cannot be told. The run fails here, naming it, rather than waiting for it.
void NodeCollector::collector_failed(Rank leader, const std::string& why) {
  if (!collector_) return;
  node_.trace("window_leader_lost", {{"leader", leader}, {"reason", why}});
  collector_.reset();
  collect_orders_.clear();
  collect_open_.clear();
  collect_primed_.clear();
  collect_out_ = 0;
  node_.phase_ = Node::Phase::Exited;
  node_.emit(ExitCmd{false, "window leader rank " + std::to_string(leader) + " lost: " + why});
}

}  // namespace tsunagi
