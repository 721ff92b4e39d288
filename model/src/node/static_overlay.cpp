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
std::optional<std::string> StaticOverlay::placement_refusal(const wire::GroupsMsgBody& body) const {
  const bool hierarchical = node_.config_->overlay.plan == PlanKind::Hierarchical;
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
  if (!holds(node_.rank_)) return "a placement for a group without us";
  if (!holds(l.leader)) return "a leader outside the group";
  if (l.leader != node_.rank_ && (l.parent != kNoRank || !l.children.empty() || !l.below.empty()))
    return "leader links sent to a member";
  if (l.parent != kNoRank)
    if (auto why = wire::unknown_rank(l.parent, node_.n_, "parent leader")) return why;
  if (auto why = wire::unknown_rank_in(l.children, node_.n_, "child leader")) return why;
  if (auto why = wire::unknown_rank_in(l.below, node_.n_, "rank below")) return why;
  if (!std::is_sorted(l.children.begin(), l.children.end()) ||
      !std::is_sorted(l.below.begin(), l.below.end()))
    return "leader links out of order";
  for (Rank via : l.below_via)
    if (!std::binary_search(l.children.begin(), l.children.end(), via))
      return "a next hop below that is no child leader";
  return std::nullopt;
}

void StaticOverlay::on_groups(wire::GroupsMsgBody body) {
  if (node_.phase_ != Node::Phase::AwaitGroups) return;
  node_.phase_ = Node::Phase::Connecting;
  if (body.links) {
    // Hierarchical: only the own group and the leader links, never all N ranks.
    Placement placement{std::move(body.groups.front()), std::move(*body.links)};
    std::sort(placement.group.begin(), placement.group.end());
    plan_ = placement_neighbors(node_.rank_, placement);
    placement_ = std::move(placement);
  } else {
    const Groups& groups = body.groups;
    remember_groups(groups);
    plan_ = plan_neighbors(node_.config_->overlay.plan, node_.rank_, node_.n_, groups,
                           node_.config_->overlay.random_k, node_.config_->seed);
    if (node_.config_->overlay.routing == RoutingKind::FromGroups) {
      plan_groups_ = normalise_plan_groups(node_.n_, groups);
    }
  }
  have_plan_ = true;
  node_.trace("plan", {{"plan", to_string(node_.config_->overlay.plan)}, {"neighbors", plan_}});
  if (node_.config_->window.mode == WindowMode::Fixed)
    node_.trace("window", {{"mode", "fixed"}, {"buffer_bytes", node_.config_->window.bytes}});
  if (node_.config_->window.mode == WindowMode::Auto && !plan_.empty())
    return node_.windows_.start_windowing();
  start_static_connects();
}

void StaticOverlay::start_static_connects() {
  node_.phase_ = Node::Phase::Connecting;
  // The lower rank of each pair connects; the higher one waits for it. Routing = direct is the
  // plain-sockets baseline of paper 001: both ends try, and either success connects the pair.
  for (Rank peer : plan_) {
    if (peer > node_.rank_ || node_.direct_routing()) static_to_open_.push_back(peer);
  }
  if (node_.relay_plan()) node_.relay_.attach_relay();
  open_more_static();
  check_static_ready();
}

// Workloads may shape their traffic by the groups (the topology-aware multicast tree).
void StaticOverlay::remember_groups(const Groups& groups) {
  group_of_rank_.clear();
  if (groups.empty()) return;
  group_of_rank_.assign(static_cast<std::size_t>(node_.n_), -1);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (Rank rank : groups[g])
      if (rank >= 0 && rank < node_.n_) group_of_rank_[rank] = static_cast<int>(g);
}

// Keeps at most connect_parallel of our static connects in the making, in rank order.
void StaticOverlay::open_more_static() {
  const int limit = node_.config_->overlay.connect_parallel;
  while (!static_to_open_.empty() && (limit == 0 || static_opening_ < limit)) {
    const Rank peer = static_to_open_.front();
    if (static_conns_.count(peer) != 0) {
      static_to_open_.pop_front();
      continue;
    }
    const Endpoint* to = node_.endpoints_.find(peer);
    if (to == nullptr) return ask_static_endpoints();  // on_endpoint_reply carries on
    static_to_open_.pop_front();
    ++static_opening_;
    node_.open_connection(*to, peer, wire::ConnPurpose::Static);
  }
}

// Directory on demand: the endpoints of the next few planned peers. Small batches keep each
// answer small — 10,000 nodes asking for ~150 endpoints at once would be 10,000 multi-kilobyte
// answers squeezing through the rendezvous's one link together — and one round trip per batch
// is short beside the connects it feeds.
void StaticOverlay::ask_static_endpoints() {
  constexpr std::size_t kBatch = 32;
  std::vector<Rank> next;
  for (std::size_t i = 0; i < static_to_open_.size() && next.size() < kBatch; ++i)
    next.push_back(static_to_open_[i]);
  node_.have_endpoints(next);
}

void StaticOverlay::static_connect_settled(const NodeConn& c) {
  if (!c.outgoing || c.purpose != wire::ConnPurpose::Static) return;
  --static_opening_;
  open_more_static();
  check_static_ready();
}

void StaticOverlay::static_peer_up(Rank peer, ConnId id) {
  node_.count_open(id);
  static_conns_[peer] = id;
  check_static_ready();
}

void StaticOverlay::static_peer_failed(Rank peer) {
  static_failed_.insert(peer);
  check_static_ready();
}

void StaticOverlay::check_static_ready() {
  if (node_.phase_ != Node::Phase::Connecting || !have_plan_ || !node_.relay_.relay_settled_)
    return;
  // Direct: the peer may have connected to us while our own attempt still runs; the paper's
  // time to full connectivity waits for every attempt (its 189 s time-outs).
  if (node_.direct_routing() && (static_opening_ > 0 || !static_to_open_.empty())) return;
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
  node_.phase_ = Node::Phase::Routing;
  settled_at_ = node_.now_;
  if (node_.direct_routing()) return announce_settled();
  if (node_.config_->overlay.routing == RoutingKind::FromGroups && placement_) {
    routes_ = std::make_unique<HierarchyRoutes>(node_.rank_, node_.n_, std::move(*placement_),
                                                std::move(usable));
    placement_.reset();
  } else if (node_.config_->overlay.routing == RoutingKind::FromGroups) {
    routes_ = std::make_unique<GroupRoutes>(node_.rank_, node_.n_, plan_groups_, std::move(usable));
    plan_groups_ = {};
  } else {
    routes_ = std::make_unique<RoutingRounds>(node_.rank_, node_.n_, std::move(usable));
  }
  for (auto& [from, frame] : early_rounds_) on_route_round(from, frame);
  early_rounds_.clear();
  pump_routing();
}

void StaticOverlay::on_route_round(Rank from, const wire::Frame& frame) {
  if (!routes_) {
    early_rounds_.emplace_back(from, frame);
    return;
  }
  auto msg = wire::read_route_round(frame);
  std::optional<std::string> bad;
  if (auto* e = std::get_if<wire::DecodeError>(&msg)) bad = e->reason;
  for (std::size_t i = 0; !bad && i < std::get<wire::RouteRoundMsg>(msg).entries.size(); ++i)
    bad = wire::unknown_rank(std::get<wire::RouteRoundMsg>(msg).entries[i].dest, node_.n_, "route");
  if (bad) {
    auto it = static_conns_.find(from);
    if (it != static_conns_.end()) node_.reject(it->second, *bad);
    return;
  }
  routes_->receive(from, std::get<wire::RouteRoundMsg>(msg));
  pump_routing();
}

// Sends what the route table wants sent; once it is final, the workload starts.
void StaticOverlay::pump_routing() {
  if (!routes_ || (routes_->done() && node_.phase_ != Node::Phase::Routing)) return;
  while (auto msg = routes_->step()) {
    for (const auto& [peer, id] : static_conns_) {
      node_.send_frame(id, wire::make_route_round(node_.rank_, peer, *msg));
    }
  }
  if (routes_->done() && node_.phase_ == Node::Phase::Routing) routing_done();
}

bool StaticOverlay::routes_ready() const {
  return routes_ && routes_->done();
}

Rank StaticOverlay::next_hop(Rank dest) const {
  return routes_->next_hop(dest);
}

void StaticOverlay::trace_routes() {
  const int known = routes_->known();
  const int max_hops = routes_->max_distance();
  nlohmann::json detail = {{"known", known}, {"max_hops", max_hops}};
  if (node_.config_->overlay.trace_full_routes) {
    detail["next_hop"] = routes_->next_hops();
  } else {
    std::ostringstream hex;
    hex << std::hex << std::setw(16) << std::setfill('0') << routes_->digest();
    detail["digest"] = hex.str();
  }
  node_.trace("routes", std::move(detail));
}

void StaticOverlay::routing_done() {
  trace_routes();
  // Under the relay plan routes cover the own site only: the relay reaches the rest.
  if (!routes_->complete() && !node_.relay_plan()) {
    node_.trace("routes_incomplete", {{"known", routes_->known()}, {"processes", node_.n_}});
  }
  node_.work_.start();
}

void StaticOverlay::announce_settled() {
  node_.send_frame(node_.rendezvous_conn_, wire::make_settled(node_.rank_));
}

}  // namespace tsunagi
