// The shortcut cache (paper 000 §3.2): direct connections opened after a message had to be
// relayed, at most `capacity` of them; past that, the least recently used one (longest without a
// send or receive) is closed. This class only keeps the books; the caller opens and closes.
#pragma once

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi {

class ShortcutCache {
 public:
  explicit ShortcutCache(int capacity);  // 0 (or less) = shortcuts disabled

  int capacity() const { return capacity_; }
  std::size_t size() const { return entries_.size(); }
  bool contains(Rank peer) const { return entries_.count(peer) != 0; }

  // The shortcut's connection, if any. Does not change recency.
  std::optional<ConnId> find(Rank peer) const;

  // A send or receive on the shortcut: it becomes the most recent. Unknown peers are ignored.
  void touch(Rank peer);

  // Inserts peer as most recent. Returns a connection the caller must close, if any:
  //  - over capacity: the least recently used entry (peer, conn), now removed;
  //  - capacity 0 (or a negative peer rank): the inserted pair itself (nothing is held);
  //  - peer already held with a different conn: (peer, old conn), which the new one replaces
  //    (an untracked connection would otherwise stay open forever, outside the limit).
  // Re-inserting the same (peer, conn) only refreshes recency and returns nothing.
  std::optional<std::pair<Rank, ConnId>> insert(Rank peer, ConnId conn);

  // The peer's shortcut moves to another connection; its recency stays. Returns whether the
  // peer was held (nothing changes otherwise).
  bool replace(Rank peer, ConnId conn);

  // The connection was closed by the other side. Returns whether the peer was held.
  bool erase(Rank peer);

  // Held peers, least recent first (for tests and traces).
  std::vector<Rank> peers_lru_order() const;

 private:
  // Doubly linked recency list threaded through the map by rank, not by iterator, so the
  // cache stays valid when copied or moved (Node reassigns it on start). All O(1) on average.
  struct Entry {
    ConnId conn = 0;
    Rank older = kNoRank;  // towards the least recent end
    Rank newer = kNoRank;  // towards the most recent end
  };

  void unlink(Rank peer);
  void push_newest(Rank peer);

  int capacity_;
  std::unordered_map<Rank, Entry> entries_;
  Rank oldest_ = kNoRank;
  Rank newest_ = kNoRank;
};

}  // namespace tsunagi
