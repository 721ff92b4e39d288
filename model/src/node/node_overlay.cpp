// Node side of the overlay (paper 000 §3.1): open the static connections of the plan, then
// build routes over them by synchronous rounds of distance-vector exchange.
#include <algorithm>
#include <iomanip>
#include <sstream>
#include <utility>

#include "node/node.hpp"
#include "tsunagi/model/overlay/hierarchy_routes.hpp"
#include "tsunagi/model/overlay/plan.hpp"
#include "tsunagi/model/rng.hpp"
#include "wire/rank_checks.hpp"

namespace tsunagi {

// Why a groups message does not fit this run's plan, or nothing. A hierarchical placement is
// the receiver's own group and its leader links; every rank in it is a claim to check before
// the routes index anything by it (docs/security.md).
std::optional<std::string> Node::placement_refusal(const wire::GroupsMsgBody& body) const {
  const bool hierarchical = config_->overlay.plan == PlanKind::Hierarchical;
  if (!body.links) {
    if (hierarchical) return "a hierarchical plan needs the leader links";
    return std::nullopt;
  }
  if (!hierarchical) return "leader links outside a hierarchical plan";
  if (body.groups.size() != 1) return "a placement holds exactly one group";
  const auto& group = body.groups.front();
  const wire::LeaderLinks& l = *body.links;
  const auto holds = [&](Rank r) {
    return std::find(group.begin(), group.end(), r) != group.end();
  };
  if (!holds(rank_)) return "a placement for a group without us";
  if (!holds(l.leader)) return "a leader outside the group";
  if (l.leader != rank_ && (l.parent != kNoRank || !l.children.empty() || !l.below.empty()))
    return "leader links sent to a member";
  if (l.parent != kNoRank)
    if (auto why = wire::unknown_rank(l.parent, n_, "parent leader")) return why;
  if (auto why = wire::unknown_rank_in(l.children, n_, "child leader")) return why;
  if (auto why = wire::unknown_rank_in(l.below, n_, "rank below")) return why;
  if (!std::is_sorted(l.children.begin(), l.children.end()) ||
      !std::is_sorted(l.below.begin(), l.below.end()))
    return "leader links out of order";
  for (Rank via : l.below_via)
    if (!std::binary_search(l.children.begin(), l.children.end(), via))
      return "a next hop below that is no child leader";
  return std::nullopt;
}

void Node::on_groups(wire::GroupsMsgBody body) {
  if (phase_ != Phase::AwaitGroups) return;
  phase_ = Phase::Connecting;
  if (body.links) {
    // Hierarchical: only the own group and the leader links, never all N ranks.
    Placement placement{std::move(body.groups.front()), std::move(*body.links)};
    std::sort(placement.group.begin(), placement.group.end());
    plan_ = placement_neighbors(rank_, placement);
    placement_ = std::move(placement);
  } else {
    const Groups& groups = body.groups;
    remember_groups(groups);
    plan_ = plan_neighbors(config_->overlay.plan, rank_, n_, groups, config_->overlay.random_k,
                           config_->seed);
    if (config_->overlay.routing == RoutingKind::FromGroups) {
      plan_groups_ = normalise_plan_groups(n_, groups);
    }
  }
  have_plan_ = true;
  trace("plan", {{"plan", to_string(config_->overlay.plan)}, {"neighbors", plan_}});
  if (config_->window.mode == WindowMode::Fixed)
    trace("window", {{"mode", "fixed"}, {"buffer_bytes", config_->window.bytes}});
  if (config_->window.mode == WindowMode::Auto && !plan_.empty()) return start_windowing();
  start_static_connects();
}

void Node::start_static_connects() {
  phase_ = Phase::Connecting;
  // The lower rank of each pair connects; the higher one waits for it. Routing = direct is the
  // plain-sockets baseline of paper 001: both ends try, and either success connects the pair.
  for (Rank peer : plan_) {
    if (peer > rank_ || direct_routing()) static_to_open_.push_back(peer);
  }
  if (relay_plan()) attach_relay();
  open_more_static();
  check_static_ready();
}

// Workloads may shape their traffic by the groups (the topology-aware multicast tree).
void Node::remember_groups(const Groups& groups) {
  group_of_rank_.clear();
  if (groups.empty()) return;
  group_of_rank_.assign(static_cast<std::size_t>(n_), -1);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (Rank rank : groups[g])
      if (rank >= 0 && rank < n_) group_of_rank_[rank] = static_cast<int>(g);
}

// Keeps at most connect_parallel of our static connects in the making, in rank order.
void Node::open_more_static() {
  const int limit = config_->overlay.connect_parallel;
  while (!static_to_open_.empty() && (limit == 0 || static_opening_ < limit)) {
    const Rank peer = static_to_open_.front();
    if (static_conns_.count(peer) != 0) {
      static_to_open_.pop_front();
      continue;
    }
    const Endpoint* to = endpoints_.find(peer);
    if (to == nullptr) return ask_static_endpoints();  // on_endpoint_reply carries on
    static_to_open_.pop_front();
    ++static_opening_;
    open_connection(*to, peer, wire::ConnPurpose::Static);
  }
}

// Directory on demand: the endpoints of the next few planned peers. Small batches keep each
// answer small — 10,000 nodes asking for ~150 endpoints at once would be 10,000 multi-kilobyte
// answers squeezing through the rendezvous's one link together — and one round trip per batch
// is short beside the connects it feeds.
void Node::ask_static_endpoints() {
  constexpr std::size_t kBatch = 32;
  std::vector<Rank> next;
  for (std::size_t i = 0; i < static_to_open_.size() && next.size() < kBatch; ++i)
    next.push_back(static_to_open_[i]);
  have_endpoints(next);
}

void Node::static_connect_settled(const Conn& c) {
  if (!c.outgoing || c.purpose != wire::ConnPurpose::Static) return;
  --static_opening_;
  open_more_static();
  check_static_ready();
}

void Node::static_peer_up(Rank peer, ConnId id) {
  count_open(id);
  static_conns_[peer] = id;
  check_static_ready();
}

void Node::static_peer_failed(Rank peer) {
  static_failed_.insert(peer);
  check_static_ready();
}

void Node::check_static_ready() {
  if (phase_ != Phase::Connecting || !have_plan_ || !relay_settled_) return;
  // Direct: the peer may have connected to us while our own attempt still runs; the paper's
  // time to full connectivity waits for every attempt (its 189 s time-outs).
  if (direct_routing() && (static_opening_ > 0 || !static_to_open_.empty())) return;
  // Peers settle in any order but stay settled: resume where the last check stopped, so a
  // node with hundreds of neighbours does not rescan its whole plan at every connection.
  for (; plan_settled_ < plan_.size(); ++plan_settled_) {
    const Rank peer = plan_[plan_settled_];
    if (static_conns_.count(peer) == 0 && static_failed_.count(peer) == 0) return;
  }
  // Route only over connections that exist: a failed neighbour is routed around.
  std::vector<Rank> usable;
  for (Rank peer : plan_) {
    if (static_conns_.count(peer)) usable.push_back(peer);
  }
  phase_ = Phase::Routing;
  settled_at_ = now_;
  if (direct_routing()) return announce_settled();
  if (config_->overlay.routing == RoutingKind::FromGroups && placement_) {
    routes_ =
        std::make_unique<HierarchyRoutes>(rank_, n_, std::move(*placement_), std::move(usable));
    placement_.reset();
  } else if (config_->overlay.routing == RoutingKind::FromGroups) {
    routes_ = std::make_unique<GroupRoutes>(rank_, n_, plan_groups_, std::move(usable));
    plan_groups_ = {};
  } else {
    routes_ = std::make_unique<RoutingRounds>(rank_, n_, std::move(usable));
  }
  for (auto& [from, frame] : early_rounds_) on_route_round(from, frame);
  early_rounds_.clear();
  pump_routing();
}

void Node::on_route_round(Rank from, const wire::Frame& frame) {
  if (!routes_) {
    early_rounds_.emplace_back(from, frame);
    return;
  }
  auto msg = wire::read_route_round(frame);
  std::optional<std::string> bad;
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) bad = e->reason;
  for (std::size_t i = 0; !bad && i < std::get<wire::RouteRoundMsg>(msg).entries.size(); ++i)
    bad = wire::unknown_rank(std::get<wire::RouteRoundMsg>(msg).entries[i].dest, n_, "route");
  if (bad) {
    auto it = static_conns_.find(from);
    if (it != static_conns_.end()) reject(it->second, *bad);
    return;
  }
  routes_->receive(from, std::get<wire::RouteRoundMsg>(msg));
  pump_routing();
}

// Sends what the route table wants sent; once it is final, the workload starts.
void Node::pump_routing() {
  if (!routes_ || (routes_->done() && phase_ != Phase::Routing)) return;
  while (auto msg = routes_->step()) {
    for (const auto& [peer, id] : static_conns_) {
      send_frame(id, wire::make_route_round(rank_, peer, *msg));
    }
  }
  if (routes_->done() && phase_ == Phase::Routing) routing_done();
}

bool Node::routes_ready() const {
  return routes_ && routes_->done();
}

Rank Node::next_hop(Rank dest) const {
  return routes_->next_hop(dest);
}

void Node::trace_routes() {
  const int known = routes_->known();
  const int max_hops = routes_->max_distance();
  nlohmann::json detail = {{"known", known}, {"max_hops", max_hops}};
  if (config_->overlay.trace_full_routes) {
    detail["next_hop"] = routes_->next_hops();
  } else {
    std::ostringstream hex;
    hex << std::hex << std::setw(16) << std::setfill('0') << routes_->digest();
    detail["digest"] = hex.str();
  }
  trace("routes", std::move(detail));
}

void Node::routing_done() {
  trace_routes();
  // Under the relay plan routes cover the own site only: the relay reaches the rest.
  if (!routes_->complete() && !relay_plan()) {
    trace("routes_incomplete", {{"known", routes_->known()}, {"processes", n_}});
  }
  start_workload();
}

void Node::start_workload() {
  phase_ = Phase::Running;
  flush_waiting_frames();
  workload_ = make_workload(config_->workload);
  workload_->start(*this);
  for (auto& frame : early_data_) on_data(std::move(frame));
  early_data_.clear();
  for (const auto& [peer, id] : std::exchange(early_shortcuts_, {}))
    if (conns_.count(id) != 0) shortcut_up(peer, id, false);
}

}  // namespace tsunagi
