// Shortcuts (paper 000 §3.2): a relayed send opens a direct connection to its destination,
// held in a bounded LRU cache; evicting one is a goodbye handshake, and when both ends open one
// at once the pair keeps exactly one. See node_shortcuts.hpp.
#include "node/node.hpp"

namespace tsunagi {

// A shortcut takes a cache slot from the moment it is opened, so a burst of relayed sends cannot
// open more connections than the cache holds. With every slot taken, the least recently used
// established shortcut makes room; if all slots are still connecting, the message just stays
// relayed (paper 000 §3.2 bounds the number of shortcuts; it does not say what a burst does).
void NodeShortcuts::maybe_open_shortcut(Rank peer) {
  const auto capacity = static_cast<std::size_t>(cache_.capacity());
  if (capacity == 0 || shortcut_pending_.count(peer) || cache_.contains(peer)) return;
  if (cache_.size() + shortcut_pending_.size() >= capacity) {
    if (cache_.size() == 0) return;  // every slot is still connecting
    evict_lru_shortcut();
  }
  shortcut_pending_.insert(peer);
  if (!node_.have_endpoints({peer})) {
    shortcuts_awaiting_endpoints_.push_back(peer);
    return;
  }
  node_.open_connection(*node_.endpoints_.find(peer), peer, wire::ConnPurpose::Shortcut);
}

// Both ends may open a shortcut to each other at once; the pair keeps exactly one: the
// connection its lower rank opened, whichever comes up first at either end (a race of the
// network). The other is retired at both ends. The trace says only that the pair has a shortcut
// (shortcut_up), once, so the outcome of the race does not show in the decisions.
//
// A shortcut a faster peer opened before our own routes were done waits until they are: only
// then do we know whether the peer is a static neighbour, and the decision lands after our
// plan and routes on every backend, whichever arrived first (the hierarchical plan sends the
// ranks their placements one by one, so a peer near the root may run long before we start).
void NodeShortcuts::shortcut_up(Rank peer, ConnId id, bool initiated) {
  if (!initiated && node_.phase_ < Node::Phase::Running) {
    early_shortcuts_.emplace_back(peer, id);
    return;
  }
  if (initiated) shortcut_pending_.erase(peer);
  constexpr auto kDuplicate = wire::GoodbyeReason::Duplicate;
  if (node_.overlay_.static_conns_.count(peer) || cache_.capacity() == 0)
    return retire_shortcut(id, kDuplicate);
  if (auto held = cache_.find(peer)) {
    const auto it = node_.conns_.find(*held);
    const bool usable = it != node_.conns_.end() && !it->second.closing;
    // Two openers raced: the lower rank's connection is the pair's. A held entry without a
    // usable connection waits for exactly this one; one opened by the same end is older.
    const bool race = usable && it->second.outgoing != initiated;
    if (race && initiated != (node_.rank_ < peer)) return retire_shortcut(id, kDuplicate);
    const ConnId older = *held;
    cache_.replace(peer, id);
    retire_shortcut(older, kDuplicate);  // first, so the pair never counts twice
    return node_.count_open(id);
  }
  // Our own connection to a higher rank is on its way and will be the pair's shortcut.
  if (!initiated && node_.rank_ < peer && shortcut_pending_.count(peer))
    return retire_shortcut(id, kDuplicate);
  hold_shortcut(peer, id, initiated);
}

// A new shortcut for the pair: room is made before it is traced, as when it is opened. The
// counters keep the direction; the trace does not (see shortcut_up).
void NodeShortcuts::hold_shortcut(Rank peer, ConnId id, bool initiated) {
  ++(initiated ? node_.counters_.shortcuts_opened : node_.counters_.shortcuts_accepted);
  if (cache_.size() >= static_cast<std::size_t>(cache_.capacity())) evict_lru_shortcut();
  node_.trace("shortcut_up", {{"peer", peer}});
  cache_.insert(peer, id);
  node_.count_open(id);
}

void NodeShortcuts::evict_lru_shortcut() {
  auto order = cache_.peers_lru_order();
  if (order.empty()) return;
  Rank victim = order.front();
  ConnId victim_conn = *cache_.find(victim);
  cache_.erase(victim);
  ++node_.counters_.shortcuts_evicted;
  node_.trace("shortcut_evicted", {{"peer", victim}});
  retire_shortcut(victim_conn);
}

// Closing a connection the peer may be sending on would lose its frames in flight (a real
// TCP peer gets a reset). So eviction is a handshake: we say goodbye and only receive; the peer
// stops using the connection, answers goodbye and closes; frames before its answer still arrive.
// From the goodbye on, the connection counts as closing, not as in use.
void NodeShortcuts::retire_shortcut(ConnId id, wire::GoodbyeReason reason) {
  auto it = node_.conns_.find(id);
  if (it == node_.conns_.end() || it->second.closing) return;
  NodeConn& c = it->second;
  if (c.counted) --node_.counters_.open_data_connections;
  c.counted = false;
  c.closing = true;
  ++node_.counters_.closing_connections;
  node_.counters_.max_closing_connections =
      std::max(node_.counters_.max_closing_connections, node_.counters_.closing_connections);
  node_.send_frame(id, wire::make_goodbye(reason));
}

// The peer retires a shortcut connection. Evicted: the pair's shortcut is gone. Duplicate: the
// peer keeps the pair's other connection (opened by the lower rank), which is on its way here;
// the cache entry stays, unusable, and takes that connection when it comes up, so the trace is
// the same whichever arrives first.
void NodeShortcuts::on_goodbye(ConnId id, wire::GoodbyeReason reason) {
  auto it = node_.conns_.find(id);
  if (it == node_.conns_.end()) return;
  if (!it->second.closing) {
    Rank peer = it->second.peer;
    auto held = cache_.find(peer);
    if (held && *held == id && reason == wire::GoodbyeReason::Evicted) {
      cache_.erase(peer);
      node_.trace("shortcut_closed_by_peer", {{"peer", peer}});
    }
    node_.send_frame(id, wire::make_goodbye(reason));
  }
  node_.close_connection(id);
}

void NodeShortcuts::touch_shortcut(Rank peer, ConnId id) {
  auto held = cache_.find(peer);
  if (held && *held == id) cache_.touch(peer);
}

}  // namespace tsunagi
