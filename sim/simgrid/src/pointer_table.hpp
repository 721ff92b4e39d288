// A hash table keyed by a pointer, flat: one array, no allocation per entry. The completion
// queues (completions.hpp) add and take one entry per message sent, and std::unordered_map
// allocated and freed a node each time (with its malloc bookkeeping, ~3 % of a 100-process
// all-to-all run). Open addressing with linear probing; an entry is taken out by shifting the
// entries after it back, so no tombstones build up. Looked up, never iterated: what a run does
// cannot depend on where pointers land in it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tsunagi::sim::simgrid {

template <class Value>
class PointerTable {
 public:
  // `key` must not be null nor already present.
  void insert(const void* key, Value value) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    place(key, std::move(value));
    ++size_;
  }

  // Moves the entry of `key` into `out` and removes it; false when there is none.
  bool take(const void* key, Value& out) {
    if (size_ == 0) return false;
    std::size_t at = home(key);
    while (slots_[at].key != key) {
      if (slots_[at].key == nullptr) return false;
      at = next(at);
    }
    out = std::move(slots_[at].value);
    // Backward shift: each later entry of the run moves into the hole if the hole lies between
    // its home and where it is now (cyclically), so every entry stays reachable from its home.
    std::size_t hole = at;
    for (std::size_t probe = next(hole); slots_[probe].key != nullptr; probe = next(probe)) {
      const std::size_t want = home(slots_[probe].key);
      if (((probe - want) & mask()) >= ((probe - hole) & mask())) {
        slots_[hole] = std::move(slots_[probe]);
        hole = probe;
      }
    }
    slots_[hole] = Slot{};
    --size_;
    return true;
  }

  std::size_t size() const { return size_; }

 private:
  struct Slot {
    const void* key = nullptr;
    Value value{};
  };

  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t next(std::size_t at) const { return (at + 1) & mask(); }
  // Fibonacci hashing of the address: its low bits are alignment, its high bits change slowly.
  std::size_t home(const void* key) const {
    const auto bits = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(key));
    return static_cast<std::size_t>((bits * 0x9E3779B97F4A7C15ULL) >> shift_);
  }
  void place(const void* key, Value value) {
    std::size_t at = home(key);
    while (slots_[at].key != nullptr) at = next(at);
    slots_[at] = Slot{key, std::move(value)};
  }
  void grow() {
    const std::size_t capacity = slots_.empty() ? 64 : slots_.size() * 2;
    std::vector<Slot> old(capacity);
    old.swap(slots_);
    shift_ = 64 - static_cast<unsigned>(std::countr_zero(capacity));
    for (Slot& slot : old)
      if (slot.key != nullptr) place(slot.key, std::move(slot.value));
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  unsigned shift_ = 64;
};

}  // namespace tsunagi::sim::simgrid
