// The rendezvous's side of the exact tree method (paper 000 §2.2): it has representatives of
// the switch groups run throughput probes, one set at a time (a transfer alone, or two
// started together), then turns the durations into the interference relation and the tree.
// Sets run one after another so that no other probe disturbs them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/topology/tree_inference.hpp"

namespace tsunagi {

class TreeProber {
 public:
  struct Order {
    Rank from = kNoRank;
    wire::ProbeOrderMsg msg;
  };

  // `hosts` (host label per rank) picks a second representative on another machine, for the
  // shared-sender probes.
  TreeProber(const Groups& groups, const std::vector<std::string>& hosts,
             const InferenceConfig& config);

  // Orders of the next set; empty once every set has run.
  std::vector<Order> next_orders();
  // A node's answer. True when it completes the current set.
  bool on_result(const wire::ProbeResultMsg& result);
  bool finished() const { return next_set_ >= sets_.size() && waiting_ == 0; }
  std::uint64_t transfers() const { return transfers_; }
  std::uint64_t failed() const { return failed_; }
  // The relation and the tree (after finished()).
  SwitchTree infer() const;

 private:
  struct Transfer {
    TransferPath path;
    Rank from = kNoRank;
    Rank to = kNoRank;
    double rate = 0;  // bytes per second; 0 = not measured (failed)
  };
  using Set = std::vector<Transfer>;

  void add_single(TransferPath path);
  void add_pair(const PathPair& pair);
  Rank rep(int group, int which) const;

  int groups_ = 0;
  std::vector<std::vector<Rank>> reps_;  // per group: first member, then one on another host
  std::uint64_t bytes_ = 0;
  double drop_ = 0.25;
  std::vector<Set> sets_;
  std::size_t next_set_ = 0;
  int waiting_ = 0;
  std::uint64_t transfers_ = 0;
  std::uint64_t failed_ = 0;
};

}  // namespace tsunagi
