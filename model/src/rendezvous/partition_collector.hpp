// One window's partition rounds, run by a rank of the window instead of the rendezvous
// (groups = "partition", docs/tree-inference.md "The partition method", step 3). The
// rendezvous hands each window to its first host (WindowOrder) and gets back only the window's
// groups and, for every two of them, the smallest RTT measured between their ranks
// (WindowGroups). Every leader's order, its targets' endpoints and its column then cross the
// collector's link instead of the rendezvous's: the rendezvous's link carries the windows'
// ranks and endpoints once, and the windows run side by side, each on its own link.
//
// The rounds are those of PartitionRounds, over the window's ranks renumbered 0..W-1, so that
// a collector holds state for its window only, never for all N ranks. The answer carries the
// same information the rendezvous kept when it ran the rounds itself: the groups, the links
// (the minimum per pair of groups, which is all tree_from_links reads), the probes, the
// recursion depth and the most probes one rank was the target of (the chain's included).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rendezvous/partition_rounds.hpp"
#include "rendezvous/partition_tree.hpp"
#include "tsunagi/model/messages.hpp"

namespace tsunagi {

class PartitionCollector {
 public:
  using Order = PartitionRounds::Order;  // in the run's ranks

  // `order` as read_window_order checked it: ranks sorted, offsets naming measuring ranks.
  PartitionCollector(const wire::WindowOrderMsg& order, const InferenceConfig& config);

  std::vector<Order> take_orders();
  // A leader's row; false (and ignored) unless `from` owes one. Peers outside the window are
  // dropped: the rounds measure the window only.
  bool on_column(Rank from, const std::vector<RttSample>& row);
  bool finished() const { return rounds_.finished(); }
  wire::WindowGroupsMsg result() const;

 private:
  std::optional<std::size_t> local(Rank rank) const;

  std::vector<Rank> ranks_;  // local index -> rank, sorted
  PartitionRounds rounds_;
  std::vector<RankSample> samples_;    // in local indices
  std::vector<std::uint64_t> probed_;  // per local index: the chain's probe, then the rounds'
  std::uint64_t probes_ = 0;
  std::uint64_t max_probed_ = 0;
};

}  // namespace tsunagi
