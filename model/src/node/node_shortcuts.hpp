// A node's shortcuts (paper 000 §3.2): direct connections a relayed send opens, held in a
// bounded LRU cache, and those waiting for their connect or their peer's endpoint.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/overlay/shortcut_cache.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi {

class Node;

class NodeShortcuts {
 public:
  explicit NodeShortcuts(Node& node) : node_(node) {}

  void maybe_open_shortcut(Rank peer);
  void shortcut_up(Rank peer, ConnId id, bool initiated);
  void touch_shortcut(Rank peer, ConnId id);
  void retire_shortcut(ConnId id, wire::GoodbyeReason reason = wire::GoodbyeReason::Evicted);
  void evict_lru_shortcut();  // the least recently used established shortcut goes
  void hold_shortcut(Rank peer, ConnId id, bool initiated);
  void on_goodbye(ConnId id, wire::GoodbyeReason reason);

  // Node's parts read each other's state, as the one class they were did.
  ShortcutCache cache_{0};
  std::set<Rank> shortcut_pending_;
  std::vector<std::pair<Rank, ConnId>> early_shortcuts_;  // accepted before our routes were done
  std::vector<Rank> shortcuts_awaiting_endpoints_;

 private:
  Node& node_;
};

}  // namespace tsunagi
