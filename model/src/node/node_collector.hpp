// A node as its window's collector (groups = "partition" with windows): the window's partition
// rounds, run here for the rendezvous, over connections of its own to the window's leaders.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "rendezvous/partition_collector.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi {

class Node;

class NodeCollector {
 public:
  static constexpr ConnId kOwnCollector = ~ConnId{0};  // orders this node measures itself
  static constexpr std::uint32_t kPrimeRound = 1;      // an empty order: "you have the endpoints"

  explicit NodeCollector(Node& node) : node_(node) {}

  void on_window_order(const wire::WindowOrderMsg& msg);
  void pump_collector();
  ConnId collect_conn(Rank leader);
  void prime_leaders();
  void release_orders();
  void collect_conn_open(Rank leader);
  void on_collect_answer(Rank leader, const wire::RttColumnMsg& column);
  void on_collected_column(Rank leader, const std::vector<RttSample>& row);
  void collector_failed(Rank leader, const std::string& why);

  // Node's parts read each other's state, as the one class they were did.
  std::unique_ptr<PartitionCollector> collector_;
  std::map<Rank, ConnId> collect_conns_;  // the collector's connections to its leaders
  std::set<Rank> collect_open_;           // those up (their acceptor proved the secret)
  std::map<Rank, bool> collect_primed_;   // endpoints sent; true once the leader answered
  int collect_out_ = 0;                   // orders of the current wave not yet answered
  std::vector<PartitionCollector::Order> collect_orders_;  // waiting for their connections

 private:
  Node& node_;
};

}  // namespace tsunagi
