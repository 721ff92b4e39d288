// LRU bookkeeping for shortcut connections (paper 000 §3.2).
#include "tsunagi/model/overlay/shortcut_cache.hpp"

#include <algorithm>

namespace tsunagi {

ShortcutCache::ShortcutCache(int capacity) : capacity_(std::max(capacity, 0)) {}

std::optional<ConnId> ShortcutCache::find(Rank peer) const {
  const auto it = entries_.find(peer);
  if (it == entries_.end()) return std::nullopt;
  return it->second.conn;
}

void ShortcutCache::touch(Rank peer) {
  if (!contains(peer) || peer == newest_) return;
  unlink(peer);
  push_newest(peer);
}

std::optional<std::pair<Rank, ConnId>> ShortcutCache::insert(Rank peer, ConnId conn) {
  // Disabled cache: the caller opened a connection it may not keep, so hand it straight back.
  // A negative rank cannot be held either (kNoRank marks the ends of the recency list).
  if (capacity_ == 0 || peer < 0) return std::make_pair(peer, conn);

  const auto held = entries_.find(peer);
  if (held != entries_.end()) {
    const ConnId old = held->second.conn;
    held->second.conn = conn;
    touch(peer);
    if (old == conn) return std::nullopt;
    return std::make_pair(peer, old);
  }

  entries_.emplace(peer, Entry{conn, kNoRank, kNoRank});
  push_newest(peer);
  if (entries_.size() <= static_cast<std::size_t>(capacity_)) return std::nullopt;

  // One over the limit: the entry unused the longest goes (the new one is the newest, so it is
  // never its own victim while capacity >= 1).
  const Rank victim = oldest_;
  const ConnId victim_conn = entries_.at(victim).conn;
  erase(victim);
  return std::make_pair(victim, victim_conn);
}

bool ShortcutCache::replace(Rank peer, ConnId conn) {
  const auto it = entries_.find(peer);
  if (it == entries_.end()) return false;
  it->second.conn = conn;
  return true;
}

bool ShortcutCache::erase(Rank peer) {
  if (!contains(peer)) return false;
  unlink(peer);
  entries_.erase(peer);
  return true;
}

std::vector<Rank> ShortcutCache::peers_lru_order() const {
  std::vector<Rank> order;
  order.reserve(entries_.size());
  for (Rank r = oldest_; r != kNoRank; r = entries_.at(r).newer) order.push_back(r);
  return order;
}

void ShortcutCache::unlink(Rank peer) {
  Entry& e = entries_.at(peer);
  if (e.older != kNoRank) {
    entries_.at(e.older).newer = e.newer;
  } else {
    oldest_ = e.newer;
  }
  if (e.newer != kNoRank) {
    entries_.at(e.newer).older = e.older;
  } else {
    newest_ = e.older;
  }
  e.older = e.newer = kNoRank;
}

void ShortcutCache::push_newest(Rank peer) {
  Entry& e = entries_.at(peer);
  e.older = newest_;
  e.newer = kNoRank;
  if (newest_ != kNoRank) {
    entries_.at(newest_).newer = peer;
  } else {
    oldest_ = peer;
  }
  newest_ = peer;
}

}  // namespace tsunagi
