// groups = "partition", the whole method as the rendezvous drives it (docs/tree-inference.md
// "The partition method"): 1. the chain, every host probing the next host in rank order;
// 2. windows of about 2 sqrt(N) consecutive hosts, cut at proven switch boundaries, each a part
// of the partition rounds, all at once, each run by its own collector (a rank of the window,
// partition_collector.hpp), which answers with the window's groups and links; 3. if a group is not
// a run of consecutive hosts (ranks not placed in blocks: the windows' premise is broken), the
// rounds again over all ranks as one part, whose answer needs no premise. Every RTT measured on the
// way is kept for the tree (hierarchy(), partition_tree.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rendezvous/partition_rounds.hpp"
#include "rendezvous/partition_tree.hpp"
#include "tsunagi/model/messages.hpp"

namespace tsunagi {

class PartitionInference {
 public:
  using Order = PartitionRounds::Order;

  // `width`: hosts per window (0: window_width of the host count and the configured least).
  PartitionInference(const std::vector<std::string>& hosts, const InferenceConfig& config,
                     std::size_t width = 0);

  // A window whose rounds its collector runs: the WindowOrder for it, endpoints still empty
  // (the caller knows them).
  struct Window {
    Rank collector = kNoRank;
    wire::WindowOrderMsg order;
  };

  std::vector<Order> take_orders();
  std::vector<Window> take_windows();
  // A column from a rank that owes one; false (and ignored) otherwise.
  bool on_column(Rank from, const std::vector<RttSample>& row);
  // A collector's answer; the reason it cannot be taken (not a collector owing one, groups that
  // are not a partition of its window, links outside it), or nothing.
  std::optional<std::string> on_window(Rank from, const wire::WindowGroupsMsg& answer);
  bool finished() const { return phase_ == Phase::Done; }
  const Groups& groups() const { return groups_; }
  // The switch tree over groups() (leaf i = groups()[i]) from the RTTs measured on the way.
  SwitchTree hierarchy() const;

  std::uint64_t probes() const { return probes_; }
  int levels() const { return levels_; }
  std::uint64_t max_probes_per_rank() const { return max_probed_; }
  std::size_t windows() const { return windows_; }
  bool fell_back() const { return fell_back_; }

 private:
  enum class Phase { Chain, Windows, Whole, Done };

  void start_chain();
  void start_windows(const std::vector<std::vector<Rank>>& parts);
  std::optional<std::string> misfit(std::size_t window, const wire::WindowGroupsMsg& answer) const;
  void windows_settled();
  void rounds_settled();
  void count(const Order& order);

  std::vector<std::string> hosts_;
  InferenceConfig config_;
  std::size_t width_;
  Phase phase_ = Phase::Chain;
  std::vector<Rank> reps_;
  std::vector<TimeNs> chain_;       // chain_[i]: RTT from reps_[i] to reps_[i + 1], -1 unknown
  std::vector<std::int64_t> owes_;  // chain: the rep index a rank answers for, -1 none
  std::size_t chain_waiting_ = 0;
  std::vector<Order> ready_;           // chain orders not handed out yet
  std::vector<Window> windows_ready_;  // not handed out yet
  std::vector<std::vector<Rank>> window_ranks_;
  std::vector<std::int64_t> window_of_collector_;  // by rank: the window it answers for, -1 none
  std::size_t windows_waiting_ = 0;
  int window_levels_ = 0;                  // the deepest window's rounds
  std::optional<PartitionRounds> rounds_;  // run here: one window (no chain), or the fallback
  Groups groups_;
  std::vector<RankSample> samples_;  // every RTT measured, for the tree
  std::vector<std::uint32_t> probed_;
  std::uint64_t probes_ = 0;
  std::uint64_t max_probed_ = 0;
  int levels_ = 0;
  std::size_t windows_ = 0;
  bool fell_back_ = false;
};

}  // namespace tsunagi
