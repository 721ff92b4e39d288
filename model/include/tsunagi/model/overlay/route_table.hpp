// What a node asks of its routes, whichever engine built them: distance-vector rounds exchanged
// with the neighbours (RoutingRounds, routing = "rounds") or a table read off the switch groups
// with no exchange (GroupRoutes, routing = "groups"). The node holds one RouteTable and never
// asks which kind it is.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

// FNV-1a over ranks (as 32-bit words): equal lists, equal digests.
inline std::uint64_t fnv1a_ranks(const std::vector<Rank>& ranks) {
  std::uint64_t h = 1469598103934665603ull;
  for (Rank r : ranks) {
    h ^= static_cast<std::uint32_t>(r);
    h *= 1099511628211ull;
  }
  return h;
}

class RouteTable {
 public:
  virtual ~RouteTable() = default;

  // The next message to send to every neighbour, if one is due; call until it returns nothing
  // (after building the table, after every receive() and drop_neighbor()). A table that needs
  // no exchange never has one.
  virtual std::optional<wire::RouteRoundMsg> step() { return std::nullopt; }
  // A routing message from neighbour `from`. Returns false (and ignores it) when this table
  // takes none from `from` now.
  virtual bool receive(Rank /*from*/, const wire::RouteRoundMsg& /*msg*/) { return false; }
  // The connection to `neighbor` is gone: routes go around it.
  virtual void drop_neighbor(Rank neighbor) = 0;

  // The table is final: next_hop() may be used.
  virtual bool done() const = 0;
  // Next hop towards `dest`, kNoRank when unreachable.
  virtual Rank next_hop(Rank dest) const = 0;
  // The whole table, for the trace.
  virtual std::vector<Rank> next_hops() const = 0;
  // One number for the trace that differs when the tables differ: by default the digest of
  // next_hops(); a table built from a small description may digest that instead (O(N) per node
  // is too much at 100,000 processes).
  virtual std::uint64_t digest() const { return fnv1a_ranks(next_hops()); }
  // Destinations with a route (self included), and whether that is every process.
  virtual int known() const = 0;
  virtual bool complete() const = 0;
  virtual int max_distance() const = 0;
};

}  // namespace tsunagi
