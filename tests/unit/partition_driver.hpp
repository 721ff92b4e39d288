// Drives groups = "partition" (PartitionInference) over a tree_world.hpp World, with a model of
// simulated time: every order runs its probes rtt_parallel at a time (each batch lasts its
// largest RTT) after a fixed hop from the rendezvous, and parts go on as soon as their own
// leaders have answered, as on a backend. Windows go to their collectors
// (PartitionCollector), whose orders run the same way and whose answers reach the rendezvous
// one hop after their last column. For test_partition_inference.cpp.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <queue>
#include <tuple>
#include <vector>

#include <map>
#include <memory>

#include "rendezvous/partition_collector.hpp"
#include "rendezvous/partition_inference.hpp"
#include "tree_world.hpp"
#include "tsunagi/model/rng.hpp"

namespace tsunagi::test {

struct DriveOutcome {
  Groups groups;      // sorted, each sorted
  SwitchTree tree;    // over groups() in the driver's order (see order_groups)
  Groups raw_groups;  // groups() as the driver gave them (the tree's leaf order)
  std::uint64_t probes = 0;
  std::uint64_t max_per_rank = 0;
  int levels = 0;
  std::size_t windows = 0;
  bool fell_back = false;
  TimeNs end = 0;  // modelled simulated time of the groups
};

constexpr TimeNs kOrderHop = 100'000;  // rendezvous -> leader and back, about

inline DriveOutcome drive(const World& w, const InferenceConfig& cfg, std::size_t width,
                          std::uint64_t seed = 7) {
  Rng rng(seed);
  PartitionInference inference(w.hosts(), cfg, width);
  // A column (for the rendezvous, or for a collector: its rank) or a window's answer.
  struct Pending {
    TimeNs at = 0;
    Rank from = kNoRank;
    std::vector<RttSample> row;
    Rank collector = kNoRank;  // the column goes to this rank's collector; kNoRank: rendezvous
    bool answer = false;       // the collector `from` answers the rendezvous
  };
  auto later = [](const Pending& a, const Pending& b) { return a.at > b.at; };
  std::priority_queue<Pending, std::vector<Pending>, decltype(later)> pending(later);
  std::map<Rank, std::unique_ptr<PartitionCollector>> collectors;
  TimeNs now = 0;
  auto measure = [&](const PartitionRounds::Order& order, Rank collector) {
    std::vector<RttSample> row;
    TimeNs took = kOrderHop, batch = 0;
    for (std::size_t i = 0; i < order.targets.size(); ++i) {
      row.push_back({order.targets[i], w.rtt(order.from, order.targets[i], rng)});
      batch = std::max(batch, row.back().rtt);
      if ((i + 1) % static_cast<std::size_t>(cfg.rtt_parallel) == 0 ||
          i + 1 == order.targets.size()) {
        took += batch;
        batch = 0;
      }
    }
    pending.push({now + took, order.from, std::move(row), collector, false});
  };
  auto pump = [&](Rank c) {
    PartitionCollector& collector = *collectors.at(c);
    for (const auto& order : collector.take_orders()) measure(order, c);
    if (collector.finished()) pending.push({now + kOrderHop, c, {}, kNoRank, true});
  };
  auto hand_out = [&] {
    for (const auto& order : inference.take_orders()) measure(order, kNoRank);
    for (auto& window : inference.take_windows()) {
      for (std::size_t i = 0; i < window.order.ranks.size(); ++i)
        if (window.order.rep_offsets[i] == 0) window.order.endpoints.push_back("e");
      collectors[window.collector] = std::make_unique<PartitionCollector>(window.order, cfg);
      pump(window.collector);
    }
  };
  hand_out();
  while (!inference.finished() && !pending.empty()) {
    Pending next = pending.top();
    pending.pop();
    now = next.at;
    if (next.answer) {
      const auto why = inference.on_window(next.from, collectors.at(next.from)->result());
      if (why) FAIL(*why);
    } else if (next.collector != kNoRank) {
      collectors.at(next.collector)->on_column(next.from, next.row);
      pump(next.collector);
      continue;
    } else {
      inference.on_column(next.from, next.row);
    }
    hand_out();
  }
  DriveOutcome out;
  out.raw_groups = inference.groups();
  out.groups = out.raw_groups;
  for (auto& g : out.groups) std::sort(g.begin(), g.end());
  std::sort(out.groups.begin(), out.groups.end());
  for (auto& g : out.raw_groups) std::sort(g.begin(), g.end());
  out.tree = inference.hierarchy();
  out.probes = inference.probes();
  out.max_per_rank = inference.max_probes_per_rank();
  out.levels = inference.levels();
  out.windows = inference.windows();
  out.fell_back = inference.fell_back();
  out.end = now;
  return out;
}

}  // namespace tsunagi::test
