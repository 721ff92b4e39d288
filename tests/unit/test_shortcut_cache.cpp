// The LRU shortcut cache (paper 000 §3.2): eviction order, recency, edge cases, and a property
// test against a naive reference model.
#include <catch2/catch.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "tsunagi/model/overlay/shortcut_cache.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;

namespace {

using Victim = std::optional<std::pair<Rank, ConnId>>;

Victim victim(Rank peer, ConnId conn) {
  return std::make_pair(peer, conn);
}

// The obvious O(n) implementation: a vector ordered least recent first.
class ReferenceLru {
 public:
  explicit ReferenceLru(int capacity) : capacity_(capacity) {}

  Victim insert(Rank peer, ConnId conn) {
    if (capacity_ <= 0) return victim(peer, conn);
    auto it = locate(peer);
    if (it != entries_.end()) {
      const ConnId old = it->second;
      entries_.erase(it);
      entries_.emplace_back(peer, conn);
      return old == conn ? Victim{} : victim(peer, old);
    }
    entries_.emplace_back(peer, conn);
    if (static_cast<int>(entries_.size()) <= capacity_) return {};
    const auto out = entries_.front();
    entries_.erase(entries_.begin());
    return out;
  }
  void touch(Rank peer) {
    auto it = locate(peer);
    if (it == entries_.end()) return;
    const auto entry = *it;
    entries_.erase(it);
    entries_.push_back(entry);
  }
  bool erase(Rank peer) {
    auto it = locate(peer);
    if (it == entries_.end()) return false;
    entries_.erase(it);
    return true;
  }
  std::optional<ConnId> find(Rank peer) const {
    for (const auto& [p, c] : entries_) {
      if (p == peer) return c;
    }
    return std::nullopt;
  }
  std::vector<Rank> order() const {
    std::vector<Rank> out;
    for (const auto& entry : entries_) out.push_back(entry.first);
    return out;
  }

 private:
  std::vector<std::pair<Rank, ConnId>>::iterator locate(Rank peer) {
    return std::find_if(entries_.begin(), entries_.end(),
                        [&](const auto& e) { return e.first == peer; });
  }
  int capacity_;
  std::vector<std::pair<Rank, ConnId>> entries_;
};

}  // namespace

TEST_CASE("the least recently inserted shortcut is evicted first", "[shortcut_cache]") {
  ShortcutCache cache(3);
  CHECK(cache.capacity() == 3);
  CHECK_FALSE(cache.insert(10, 100));
  CHECK_FALSE(cache.insert(11, 101));
  CHECK_FALSE(cache.insert(12, 102));
  CHECK(cache.size() == 3);
  CHECK(cache.peers_lru_order() == std::vector<Rank>{10, 11, 12});

  CHECK(cache.insert(13, 103) == victim(10, 100));
  CHECK(cache.insert(14, 104) == victim(11, 101));
  CHECK(cache.peers_lru_order() == std::vector<Rank>{12, 13, 14});
  CHECK_FALSE(cache.contains(10));
  CHECK(cache.size() == 3);
}

TEST_CASE("a send or receive saves a shortcut from eviction, find does not", "[shortcut_cache]") {
  ShortcutCache cache(3);
  cache.insert(1, 11);
  cache.insert(2, 12);
  cache.insert(3, 13);
  CHECK(cache.find(1) == ConnId{11});  // a lookup is not a use
  cache.touch(1);                      // this is
  CHECK(cache.peers_lru_order() == std::vector<Rank>{2, 3, 1});
  CHECK(cache.insert(4, 14) == victim(2, 12));
  cache.touch(99);  // unknown peers are ignored
  cache.touch(4);   // already the newest: no change
  CHECK(cache.peers_lru_order() == std::vector<Rank>{3, 1, 4});
}

TEST_CASE("capacity 0 never holds anything", "[shortcut_cache]") {
  for (int capacity : {0, -5}) {
    ShortcutCache cache(capacity);
    CHECK(cache.capacity() == 0);
    CHECK(cache.insert(7, 70) == victim(7, 70));
    CHECK(cache.size() == 0);
    CHECK_FALSE(cache.contains(7));
    CHECK_FALSE(cache.find(7));
    CHECK_FALSE(cache.erase(7));
    CHECK(cache.peers_lru_order().empty());
  }
}

TEST_CASE("re-inserting a held peer updates its connection and recency", "[shortcut_cache]") {
  ShortcutCache cache(2);
  cache.insert(1, 11);
  cache.insert(2, 12);
  CHECK_FALSE(cache.insert(1, 11));  // same connection: only refreshed
  CHECK(cache.peers_lru_order() == std::vector<Rank>{2, 1});
  CHECK(cache.insert(2, 22) == victim(2, 12));  // replaced connection must be closed
  CHECK(cache.find(2) == ConnId{22});
  CHECK(cache.size() == 2);
  CHECK(cache.peers_lru_order() == std::vector<Rank>{1, 2});
  CHECK(cache.insert(-1, 5) == victim(-1, 5));  // not a rank: never held
}

TEST_CASE("replace moves a held shortcut to another connection, recency unchanged",
          "[shortcut_cache]") {
  ShortcutCache cache(2);
  cache.insert(1, 11);
  cache.insert(2, 12);
  CHECK(cache.replace(1, 21));  // the pair's other connection takes over
  CHECK(cache.find(1) == ConnId{21});
  CHECK(cache.peers_lru_order() == std::vector<Rank>{1, 2});  // 1 is still the oldest
  CHECK(cache.insert(3, 13) == victim(1, 21));
  CHECK_FALSE(cache.replace(7, 77));  // not held: nothing changes
  CHECK(cache.size() == 2);
}

TEST_CASE("erase removes a shortcut closed by the other side", "[shortcut_cache]") {
  ShortcutCache cache(3);
  cache.insert(1, 11);
  cache.insert(2, 12);
  cache.insert(3, 13);
  CHECK(cache.erase(2));
  CHECK_FALSE(cache.erase(2));
  CHECK(cache.peers_lru_order() == std::vector<Rank>{1, 3});
  CHECK(cache.erase(1));  // the oldest
  CHECK(cache.erase(3));  // the newest, now alone
  CHECK(cache.size() == 0);
  CHECK(cache.peers_lru_order().empty());
  CHECK_FALSE(cache.insert(4, 14));  // an emptied cache works as new
  CHECK(cache.peers_lru_order() == std::vector<Rank>{4});
}

TEST_CASE("copies and moves keep working independently", "[shortcut_cache]") {
  ShortcutCache original(2);
  original.insert(1, 11);
  original.insert(2, 12);
  ShortcutCache copy = original;
  copy.touch(1);
  CHECK(copy.insert(3, 13) == victim(2, 12));
  CHECK(original.peers_lru_order() == std::vector<Rank>{1, 2});
  ShortcutCache moved(0);
  moved = std::move(copy);
  CHECK(moved.peers_lru_order() == std::vector<Rank>{1, 3});
  CHECK(moved.insert(4, 14) == victim(1, 11));
}

TEST_CASE("property: matches a reference LRU on random operation sequences", "[shortcut_cache]") {
  Rng rng(31337);
  for (int trial = 0; trial < 200; ++trial) {
    const int capacity = static_cast<int>(rng.uniform(6));
    const auto peers = 1 + rng.uniform(10);  // few peers, so hits and evictions are frequent
    ShortcutCache cache(capacity);
    ReferenceLru model(capacity);
    for (int step = 0; step < 300; ++step) {
      const auto peer = static_cast<Rank>(rng.uniform(peers));
      const ConnId conn = rng.uniform(3);  // same conn again is common too
      INFO("trial " << trial << " step " << step << " peer " << peer);
      switch (rng.uniform(4)) {
        case 0:
        case 1:
          REQUIRE(cache.insert(peer, conn) == model.insert(peer, conn));
          break;
        case 2:
          cache.touch(peer);
          model.touch(peer);
          break;
        default:
          REQUIRE(cache.erase(peer) == model.erase(peer));
          break;
      }
      REQUIRE(cache.peers_lru_order() == model.order());
      REQUIRE(cache.size() == model.order().size());
      REQUIRE(cache.size() <= static_cast<std::size_t>(capacity));
      REQUIRE(cache.find(peer) == model.find(peer));
      REQUIRE(cache.contains(peer) == model.find(peer).has_value());
    }
  }
}
