// Link-state database of the relay overlay (issue 6): pure, no I/O.
// Each relay floods an advert {origin, seq, neighbours}; a relay keeps the newest advert per
// origin and computes shortest paths over the links BOTH ends advertise. Requiring both ends
// means a relay that died (and so stops refreshing its own advert) disappears from every path as
// soon as its neighbours advertise the closed connections, even though its last advert lingers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tsunagi::relay {

struct Advert {
  std::string origin;                // relay label, e.g. "chiba-relay0"
  std::uint64_t seq = 0;             // strictly increasing per origin
  std::set<std::string> neighbours;  // relays the origin has a live connection to
  // Carried along, not used for paths: whether all the origin's connects are decided and the
  // ranks told to attach to it attached, and the ranks attached to it (ascending).
  bool settled = false;
  std::vector<std::int32_t> ranks{};
};

class LinkState {
 public:
  // Stores the advert when it is newer than what we hold; returns true when stored (the caller
  // floods exactly the adverts that return true, so floods terminate).
  bool accept(const Advert& advert);
  std::optional<std::uint64_t> seq_of(const std::string& origin) const;
  // Relays on the shortest path from `from` to `to`, both included; empty when unreachable.
  // Fewest relay hops; among equal-length paths the one whose relays, read from `from`, are
  // smallest by label (deterministic across backends).
  std::vector<std::string> path(const std::string& from, const std::string& to) const;
  // Next relay after `from` towards `to`, or nullopt when unreachable or from == to.
  std::optional<std::string> next_hop(const std::string& from, const std::string& to) const;
  std::set<std::string> relays() const;
  const std::map<std::string, Advert>& adverts() const { return adverts_; }

 private:
  bool linked(const std::string& a, const std::string& b) const;
  std::map<std::string, Advert> adverts_;
};

}  // namespace tsunagi::relay
