// Node side of the overlay (paper 000 §3.1): the static neighbours of the plan, their
// connections, and the routes built over them. Also the barrier of routing = direct.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "node/node_conn.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/overlay/group_routes.hpp"
#include "tsunagi/model/overlay/hierarchy.hpp"
#include "tsunagi/model/overlay/routing.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi {

class Node;

class StaticOverlay {
 public:
  explicit StaticOverlay(Node& node) : node_(node) {}

  std::optional<std::string> placement_refusal(const wire::GroupsMsgBody& body) const;
  void on_groups(wire::GroupsMsgBody body);
  void start_static_connects();
  void remember_groups(const Groups& groups);
  void static_peer_up(Rank peer, ConnId id);
  void static_peer_failed(Rank peer);
  void check_static_ready();
  void open_more_static();
  void ask_static_endpoints();
  void static_connect_settled(const NodeConn& c);
  void on_route_round(Rank from, const wire::Frame& frame);
  void pump_routing();
  void routing_done();
  void trace_routes();
  bool routes_ready() const;
  Rank next_hop(Rank dest) const;
  void announce_settled();  // routing = direct: the rendezvous's barrier

  // Node's parts read each other's state, as the one class they were did.
  std::vector<Rank> plan_;               // static neighbours, sorted
  std::map<Rank, ConnId> static_conns_;  // neighbour -> connection
  std::set<Rank> static_failed_;
  std::deque<Rank> static_to_open_;  // planned peers we connect to, not yet tried
  int static_opening_ = 0;           // our static connects not yet settled
  bool have_plan_ = false;
  std::size_t plan_settled_ = 0;        // plan_[0, this) is connected or failed
  std::vector<int> group_of_rank_;      // the groups the rendezvous sent, by rank (workloads)
  Groups plan_groups_;                  // routing = groups: as the plan used them
  std::optional<Placement> placement_;  // plan = hierarchical: until the routes are built
  std::unique_ptr<RouteTable> routes_;  // rounds or groups (protocol.overlay.routing)
  std::vector<std::pair<Rank, wire::Frame>> early_rounds_;
  TimeNs settled_at_ = -1;  // when the static connects settled

 private:
  Node& node_;
};

}  // namespace tsunagi
