// Scalable, concurrent group inference, run by the rendezvous (groups = "partition",
// docs/tree-inference.md "The partition method"). The ranks start as one part. A part picks up
// to `partition_leaders` leaders spread over its ranks; every leader probes every host of the
// part (one rank per host). Each leader's row over the part is then known, and its cut gives
// the leader's group. The ranks left over join the part of the first leader whose reach (the
// next clear gap in its row: the tree level around it) holds them, or one part of their own,
// and those parts recurse, all at once. A reach lies in a gap far wider than the noise, so all
// ranks of one switch fall on the same side of it.
//
// Why a row over a part suffices: the cut takes the innermost significant step
// (tie_tolerance 1), and under the documented condition (1) the RTT to any other switch is at
// least (1 + min_jump_ratio) times the RTT inside the own switch. So any row that holds the
// own switch finds exactly it, whatever else the row holds or misses; and a part never splits
// a switch, so the leader's whole switch is in its part's row.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/topology/switch_inference.hpp"

namespace tsunagi {

class PartitionRounds {
 public:
  struct Order {
    Rank from = kNoRank;        // this leader probes ...
    std::vector<Rank> targets;  // ... these ranks of its part
  };

  // `parts`: the ranks split into parts that are unions of whole switches (the windows of
  // partition_windows.hpp); empty: all ranks are one part.
  // `never_leads`: a rank that leads no part it shares with another measuring host (a window's
  // collector, whose own link carries the rounds' traffic: partition_collector.hpp).
  PartitionRounds(const std::vector<std::string>& hosts, const InferenceConfig& config,
                  std::vector<std::vector<Rank>> parts = {}, Rank never_leads = kNoRank);

  // The orders of every part ready to measure; each is handed out once. Parts that need no
  // measurement (one host) are placed on the way.
  std::vector<Order> take_orders();
  // A leader's row over its part; false (and ignored) unless the rank owes an answer.
  bool on_column(Rank from, const std::vector<RttSample>& row);
  bool finished() const { return parts_open_ == 0 && ready_.empty(); }
  const Groups& groups() const { return groups_; }
  std::uint64_t probes() const { return probes_; }
  int levels() const { return levels_; }
  // The most probes one rank was the target of (the bound the docs state: leaders x levels).
  std::uint64_t max_probes_per_rank() const { return max_probed_; }

 private:
  struct Part {
    std::vector<Rank> members;  // sorted
    int level = 0;
    std::vector<Rank> leaders;             // sorted, one per host at most
    std::vector<Rank> probing;             // one rank per host: those that measure
    std::vector<std::vector<TimeNs>> rtt;  // [probing index][leader index], -1 unknown
    std::size_t waiting = 0;
  };

  void start(Part part);
  void settle(std::size_t part_index);
  std::vector<std::vector<TimeNs>> place_leader_groups(const Part& part);
  TimeNs note_spread(const std::vector<RttSample>& row, const std::vector<Rank>& near);
  TimeNs reach_of(const std::vector<TimeNs>& beyond) const;
  std::vector<std::vector<Rank>> split_rest(const Part& part,
                                            const std::vector<std::vector<TimeNs>>& beyond) const;
  const std::string& host_of(Rank r) const { return hosts_[static_cast<std::size_t>(r)]; }
  bool same_host(Rank a, Rank b) const { return !host_of(a).empty() && host_of(a) == host_of(b); }

  std::vector<std::string> hosts_;
  InferenceConfig config_;
  std::vector<bool> placed_;
  std::vector<Part> parts_;
  std::vector<std::size_t> ready_;     // parts whose orders are not handed out yet
  std::vector<std::int64_t> part_of_;  // running part of a leader, -1 none
  std::vector<std::int64_t> slot_of_;  // its index in that part's leaders
  std::vector<std::uint64_t> probed_;  // probes aimed at each rank so far
  std::size_t parts_open_ = 0;
  Groups groups_;
  std::uint64_t probes_ = 0;
  std::uint64_t max_probed_ = 0;
  int levels_ = 0;
  TimeNs spread_ = 0;  // largest spread of RTTs from a leader to its switch-mates
  Rank never_leads_ = kNoRank;
};

}  // namespace tsunagi
