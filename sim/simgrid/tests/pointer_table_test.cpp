// PointerTable (src/pointer_table.hpp) against std::unordered_map: the same keys added and taken
// in a random order, with the table kept small and crowded (wrap-around, long probe runs, the
// backward shift of taken entries). Exits non-zero at the first difference.
#include <cstdint>
#include <cstdio>
#include <random>
#include <unordered_map>
#include <vector>

#include "pointer_table.hpp"

namespace {

int failures = 0;

void expect(bool ok, const char* what, std::size_t step) {
  if (ok) return;
  std::fprintf(stderr, "pointer_table_test: step %zu: %s\n", step, what);
  ++failures;
}

}  // namespace

int main() {
  using tsunagi::sim::simgrid::PointerTable;
  // Keys as SimGrid's would be: addresses of live objects, here a pool of 4,000 of them (so the
  // table grows from 64 slots through several doublings, and shrinks back to few entries).
  std::vector<std::uint64_t> objects(4000);
  PointerTable<std::uint64_t> table;
  std::unordered_map<const void*, std::uint64_t> reference;
  std::mt19937_64 random(19);
  for (std::size_t step = 0; step < 200000 && failures < 10; ++step) {
    const void* key = &objects[random() % objects.size()];
    // Mostly adds while the table is small, mostly takes once it is large.
    const bool add = random() % 4000 >= reference.size();
    if (add && reference.count(key) == 0) {
      const std::uint64_t value = random();
      table.insert(key, value);
      reference.emplace(key, value);
    } else {
      std::uint64_t taken = 0;
      const bool found = table.take(key, taken);
      const auto it = reference.find(key);
      expect(found == (it != reference.end()),
             "take found a key the reference has not, or not one it has", step);
      if (found && it != reference.end()) {
        expect(taken == it->second, "take returned another value", step);
        reference.erase(it);
      }
    }
    expect(table.size() == reference.size(), "sizes differ", step);
  }
  // Everything left comes out once, with its value.
  for (const auto& [key, value] : reference) {
    if (failures >= 10) break;
    std::uint64_t taken = 0;
    expect(table.take(key, taken) && taken == value, "a remaining key is missing", 0);
    expect(!table.take(key, taken), "a key came out twice", 0);
  }
  expect(table.size() == 0, "the table is not empty at the end", 0);
  if (failures == 0) std::printf("pointer_table_test: ok\n");
  return failures == 0 ? 0 : 1;
}
