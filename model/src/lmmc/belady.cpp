#include "tsunagi/model/lmmc/belady.hpp"

#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace tsunagi::lmmc {

namespace {

constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();

// next[i] = the index of the next reference to the same port after i, or kNever.
std::vector<std::size_t> next_uses(const std::vector<PortId>& references) {
  std::vector<std::size_t> next(references.size(), kNever);
  std::map<PortId, std::size_t> seen_later;
  for (std::size_t i = references.size(); i-- > 0;) {
    const auto it = seen_later.find(references[i]);
    if (it != seen_later.end()) next[i] = it->second;
    seen_later[references[i]] = i;
  }
  return next;
}

}  // namespace

std::uint64_t belady_faults(const std::vector<PortId>& references, int frames) {
  if (frames < 1)
    throw std::invalid_argument("Belady needs at least one frame, not " + std::to_string(frames));
  const std::vector<std::size_t> next = next_uses(references);
  // Resident ports ordered by their next use; ties (several "never") by port, which does not
  // change the count: all of them are equally useless.
  std::set<std::pair<std::size_t, PortId>> by_next_use;
  std::map<PortId, std::size_t> next_of;  // resident port -> its key in by_next_use
  std::uint64_t faults = 0;
  for (std::size_t i = 0; i < references.size(); ++i) {
    const PortId port = references[i];
    const auto resident = next_of.find(port);
    if (resident != next_of.end()) {
      by_next_use.erase({resident->second, port});
    } else {
      ++faults;
      if (next_of.size() == static_cast<std::size_t>(frames)) {
        const auto farthest = std::prev(by_next_use.end());
        next_of.erase(farthest->second);
        by_next_use.erase(farthest);
      }
    }
    next_of[port] = next[i];
    by_next_use.insert({next[i], port});
  }
  return faults;
}

}  // namespace tsunagi::lmmc
