// The rendezvous's view of the relay daemons (plan = relay, paper 001): who registered, on which
// connection, and which relay each rank attaches to. Pure bookkeeping, no I/O.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

class RelayRegistry {
 public:
  // Records a relay; returns why not when its label is already taken.
  std::optional<std::string> add(ConnId conn, wire::RelayEntry entry);
  // The label of the relay on `conn`, if that connection belongs to a relay; forgets it.
  std::optional<std::string> remove(ConnId conn);
  bool is_relay(ConnId conn) const { return by_conn_.count(conn) != 0; }
  int size() const { return static_cast<int>(by_conn_.size()); }
  std::vector<ConnId> conns() const;
  std::vector<std::string> labels() const;

  // Every relay, ordered by site then label.
  wire::RelayListMsg all() const;
  // What the relay on `conn` is told: every relay, and the ranks whose first choice it is.
  wire::RelayListMsg for_relay(ConnId conn, const std::vector<std::string>& site_of_rank) const;
  // The relays of `site`, starting with the one `rank` attaches to (rank mod their count, in
  // label order) and then the others in the order a node falls back on them. Empty when the
  // site has no relay.
  wire::RelayListMsg for_rank(Rank rank, const std::string& site) const;

 private:
  std::map<ConnId, wire::RelayEntry> by_conn_;
};

// Ranks grouped by the site they registered with: groups ordered by their smallest rank, ranks
// ascending inside. The relay plan connects each group internally.
Groups site_groups(const std::vector<std::string>& site_of_rank);

}  // namespace tsunagi
