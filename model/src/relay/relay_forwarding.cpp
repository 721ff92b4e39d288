// The relay role, part two: link-state adverts, forwarding between sites, undeliverable
// notices, and the end-of-run report (docs/relay.md).
#include <algorithm>

#include "relay/relay.hpp"
#include "wire/rank_checks.hpp"

namespace tsunagi {

// Our own advert: live links, attached ranks, and whether we are settled (every connect of
// ours decided and every rank told to attach here attached). Stored, then flooded.
void Relay::advertise() {
  if (exited_) return;
  wire::LinkAdvertMsg msg;
  msg.origin = label_;
  msg.seq = ++seq_;
  bool all_attached = true;
  for (Rank r : expected_) all_attached = all_attached && attached_.count(r) != 0;
  msg.settled = have_list_ && attempts_open_ == 0 && all_attached;
  for (const auto& [peer, ids] : links_) msg.neighbours.push_back(peer);
  for (const auto& [rank, id] : attached_) msg.ranks.push_back(rank);
  db_.accept(
      {label_, msg.seq, {msg.neighbours.begin(), msg.neighbours.end()}, msg.settled, msg.ranks});
  routes_dirty_ = true;
  flood(wire::make_link_advert(msg), 0);
  retry_held();
}

void Relay::on_advert(ConnId from, const wire::Frame& frame) {
  auto decoded = wire::read_link_advert(frame);
  if (auto* e = std::get_if<wire::DecodeError>(&decoded)) return reject(from, e->reason);
  auto& msg = std::get<wire::LinkAdvertMsg>(decoded);
  if (auto why = wire::unknown_rank_in(msg.ranks, config_->processes, "attached"))
    return reject(from, *why);
  if (msg.origin == label_) return;  // our own, come back around
  if (!db_.accept({msg.origin,
                   msg.seq,
                   {msg.neighbours.begin(), msg.neighbours.end()},
                   msg.settled,
                   std::move(msg.ranks)}))
    return;
  routes_dirty_ = true;
  flood(frame, from);  // only adverts that were new to us: floods end
  retry_held();
}

void Relay::send_database(ConnId id) {
  for (const auto& [origin, advert] : db_.adverts()) {
    send_frame(id, wire::make_link_advert({origin,
                                           advert.seq,
                                           advert.settled,
                                           {advert.neighbours.begin(), advert.neighbours.end()},
                                           advert.ranks}));
  }
}

void Relay::flood(const wire::Frame& frame, ConnId except) {
  for (const auto& [peer, ids] : links_) {
    if (std::find(ids.begin(), ids.end(), except) != ids.end()) continue;
    send_frame(ids.front(), frame);
  }
}

// Next hops to every reachable relay, recomputed only after the link state changed.
void Relay::refresh_routes() {
  if (!routes_dirty_) return;
  routes_dirty_ = false;
  next_hop_.clear();
  hops_.clear();
  hops_[label_] = 1;
  for (const std::string& relay : db_.relays()) {
    const std::vector<std::string> path = db_.path(label_, relay);
    if (path.size() < 2) continue;
    next_hop_[relay] = path[1];
    hops_[relay] = path.size();
  }
}

// The relay a rank is attached to: ours, else the nearest reachable relay advertising it
// (fewest hops, then smallest label — a rank that moved may linger in a stale advert).
std::optional<std::string> Relay::owner_of(Rank rank) {
  if (attached_.count(rank)) return label_;
  refresh_routes();
  std::optional<std::string> best;
  for (const auto& [origin, advert] : db_.adverts()) {
    if (origin == label_ || !hops_.count(origin)) continue;
    if (!std::binary_search(advert.ranks.begin(), advert.ranks.end(), rank)) continue;
    if (!best || hops_[origin] < hops_[*best]) best = origin;  // map order: smaller label first
  }
  return best;
}

bool Relay::settled(const std::string& relay) const {
  auto it = db_.adverts().find(relay);
  return it != db_.adverts().end() && it->second.settled;
}

// Every relay we can reach, or that one of them (or we) link to, has settled: a destination
// nobody advertises by then will not appear. Linked-to relays count because their own advert,
// the one that makes the link usable, may still be on its way.
bool Relay::converged() const {
  if (!have_list_ || attempts_open_ > 0) return false;
  for (const auto& [peer, ids] : links_)
    if (!settled(peer)) return false;
  const auto& adverts = db_.adverts();
  for (const auto& [relay, hops] : hops_) {
    if (!settled(relay)) return false;
    auto advert = adverts.find(relay);
    if (advert == adverts.end()) continue;
    for (const std::string& neighbour : advert->second.neighbours)
      if (!settled(neighbour)) return false;
  }
  return true;
}

void Relay::route(wire::Frame frame) {
  const auto owner = owner_of(frame.dst);
  if (owner && *owner == label_) {
    ++delivered_;
    return send_frame(attached_.at(frame.dst), frame);
  }
  if (owner) {
    if (frame.ttl <= 1) return give_up(frame, "ttl expired");
    --frame.ttl;
    ++frame.hops;
    ++forwarded_;
    return send_frame(links_.at(next_hop_.at(*owner)).front(), frame);
  }
  refresh_routes();
  if (!converged()) return held_.push_back(std::move(frame));
  give_up(frame, "no relay path to the destination");
}

void Relay::retry_held() {
  if (held_.empty()) return;
  for (wire::Frame& frame : std::exchange(held_, {})) route(std::move(frame));
}

// Never silently: data goes back to its source as a notice; a notice that cannot go back
// either is counted and traced here.
void Relay::give_up(const wire::Frame& frame, const std::string& reason) {
  ++undeliverable_;
  trace("undeliverable", {{"src", frame.src},
                          {"dst", frame.dst},
                          {"reason", reason},
                          {"frame", wire::to_string(frame.type)}});
  if (frame.type != wire::FrameType::Data) return;
  auto msg = wire::read_data(frame);
  const std::uint32_t tag =
      std::holds_alternative<wire::DataMsg>(msg) ? std::get<wire::DataMsg>(msg).tag : 0;
  route(wire::make_undeliverable(frame.dst, frame.src, {tag, frame.seq, reason}));
}

// Per other site, the sites a message from here passes (its relays' sites, ours first), to
// the nearest relay of that site; empty when no relay of it is reachable.
nlohmann::json Relay::site_paths() {
  refresh_routes();
  std::map<std::string, std::string> site_of;
  for (const wire::RelayEntry& e : relays_) site_of[e.label] = e.site;
  std::map<std::string, std::string> nearest;  // site -> its nearest reachable relay
  for (const wire::RelayEntry& e : relays_) {
    if (e.site == site_ || !hops_.count(e.label)) continue;
    auto it = nearest.find(e.site);
    if (it == nearest.end() || hops_[e.label] < hops_[it->second]) nearest[e.site] = e.label;
  }
  nlohmann::json paths = nlohmann::json::object();
  for (const wire::RelayEntry& e : relays_) {
    if (e.site == site_ || paths.contains(e.site)) continue;
    nlohmann::json sites = nlohmann::json::array();
    auto it = nearest.find(e.site);
    if (it != nearest.end()) {
      for (const std::string& hop : db_.path(label_, it->second)) sites.push_back(site_of[hop]);
    }
    paths[e.site] = std::move(sites);
  }
  return paths;
}

void Relay::on_shutdown() {
  if (leaving_) return;
  for (const wire::Frame& frame : std::exchange(held_, {})) {
    ++undeliverable_;
    trace("undeliverable", {{"src", frame.src},
                            {"dst", frame.dst},
                            {"reason", "still held at shutdown"},
                            {"frame", wire::to_string(frame.type)}});
  }
  std::vector<std::string> links;
  for (const auto& [peer, ids] : links_) links.push_back(peer);
  std::set<std::string> connecting;  // our attempts still undecided (dropped SYNs take minutes)
  for (const auto& [id, c] : conns_)
    if (c.kind == PeerKind::Relay && c.outgoing && !c.up) connecting.insert(c.relay);
  const nlohmann::json paths = site_paths();
  trace("relay_routes", {{"links", links}, {"paths", paths}});
  emit(ReportCmd{"relay",
                 {{"relay", label_},
                  {"site", site_},
                  {"links", links},
                  {"connect_failed", unreachable_},
                  {"connecting", connecting},
                  {"attached", attached_.size()},
                  {"forwarded", forwarded_},
                  {"delivered", delivered_},
                  {"undeliverable", undeliverable_},
                  {"paths", paths}}});
  leaving_ = true;
  send_frame(rendezvous_conn_, wire::make_shutdown_ack());
}

void Relay::on_release() {
  if (!leaving_) return;
  exited_ = true;
  emit(ExitCmd{true, "", true});
}

}  // namespace tsunagi
