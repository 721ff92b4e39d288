#include "rendezvous/partition_inference.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "rendezvous/partition_windows.hpp"

namespace tsunagi {

PartitionInference::PartitionInference(const std::vector<std::string>& hosts,
                                       const InferenceConfig& config, std::size_t width)
    : hosts_(hosts),
      config_(config),
      reps_(host_representatives(hosts)),
      owes_(hosts.size(), -1),
      probed_(hosts.size(), 0) {
  width_ = width > 0 ? width : window_width(reps_.size(), config.partition_window_min);
  // Hosts that fit in one window need no chain: the rounds over all of them are the window.
  if (reps_.size() > width_) {
    start_chain();
  } else {
    windows_ = 1;
    phase_ = Phase::Whole;
    rounds_.emplace(hosts_, config_);
  }
}

void PartitionInference::start_chain() {
  levels_ = 1;
  chain_.assign(reps_.size() - 1, -1);
  for (std::size_t i = 0; i + 1 < reps_.size(); ++i) {
    owes_[static_cast<std::size_t>(reps_[i])] = static_cast<std::int64_t>(i);
    ready_.push_back({reps_[i], {reps_[i + 1]}});
  }
  chain_waiting_ = ready_.size();
}

// Each window goes to its first rank, which measures for its host: the collector.
void PartitionInference::start_windows(const std::vector<std::vector<Rank>>& parts) {
  windows_ = parts.size();
  if (windows_ == 1) {  // no boundary proven: the rounds over all ranks, here
    phase_ = Phase::Whole;
    rounds_.emplace(hosts_, config_, parts);
    return;
  }
  phase_ = Phase::Windows;
  window_of_collector_.assign(hosts_.size(), -1);
  for (const std::vector<Rank>& ranks : parts) {
    Window w;
    w.collector = ranks.front();
    w.order.ranks = ranks;
    std::unordered_map<std::string, std::size_t> first_on_host;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const std::string& host = hosts_[static_cast<std::size_t>(ranks[i])];
      std::size_t first = i;
      if (!host.empty()) first = first_on_host.emplace(host, i).first->second;
      w.order.rep_offsets.push_back(static_cast<std::int32_t>(i - first));
    }
    window_of_collector_[static_cast<std::size_t>(w.collector)] =
        static_cast<std::int64_t>(window_ranks_.size());
    window_ranks_.push_back(ranks);
    windows_ready_.push_back(std::move(w));
  }
  windows_waiting_ = windows_;
}

std::vector<PartitionInference::Order> PartitionInference::take_orders() {
  std::vector<Order> out = std::exchange(ready_, {});
  while (rounds_) {
    for (Order& order : rounds_->take_orders()) out.push_back(std::move(order));
    if (!rounds_->finished()) break;
    rounds_settled();
  }
  for (const Order& order : out) count(order);
  return out;
}

std::vector<PartitionInference::Window> PartitionInference::take_windows() {
  return std::exchange(windows_ready_, {});
}

// The rounds run here settled: one window, or the fallback over all ranks.
void PartitionInference::rounds_settled() {
  levels_ += rounds_->levels();
  groups_ = rounds_->groups();
  rounds_.reset();
  phase_ = Phase::Done;
}

// The windows' groups stand if each is a run of consecutive hosts (the premise held);
// otherwise the rounds run once more over all ranks as one part, which needs no premise.
void PartitionInference::windows_settled() {
  levels_ += window_levels_;
  window_ranks_.clear();
  window_of_collector_.clear();
  if (!groups_are_runs(groups_, hosts_, reps_)) {
    fell_back_ = true;
    groups_.clear();
    phase_ = Phase::Whole;
    rounds_.emplace(hosts_, config_);
    return;
  }
  phase_ = Phase::Done;
}

bool PartitionInference::on_column(Rank from, const std::vector<RttSample>& row) {
  if (from < 0 || static_cast<std::size_t>(from) >= hosts_.size()) return false;
  if (phase_ == Phase::Chain) {
    const std::int64_t i = owes_[static_cast<std::size_t>(from)];
    if (i < 0) return false;
    owes_[static_cast<std::size_t>(from)] = -1;
    const Rank next = reps_[static_cast<std::size_t>(i) + 1];
    for (const RttSample& s : row)
      if (s.peer == next && s.rtt > 0) {
        TimeNs& d = chain_[static_cast<std::size_t>(i)];
        d = d < 0 ? s.rtt : std::min(d, s.rtt);
        samples_.push_back({from, s.peer, s.rtt});
      }
    if (--chain_waiting_ > 0) return true;
    start_windows(
        window_parts(hosts_, reps_, window_starts(chain_, width_, config_.min_jump_ratio)));
    return true;
  }
  if (!rounds_ || !rounds_->on_column(from, row)) return false;
  for (const RttSample& s : row)
    if (s.rtt > 0) samples_.push_back({from, s.peer, s.rtt});
  return true;
}

std::optional<std::string> PartitionInference::on_window(Rank from,
                                                         const wire::WindowGroupsMsg& answer) {
  const bool owes = phase_ == Phase::Windows && from >= 0 &&
                    static_cast<std::size_t>(from) < window_of_collector_.size() &&
                    window_of_collector_[static_cast<std::size_t>(from)] >= 0;
  if (!owes) return "window groups from a rank that collects no window";
  const auto w = static_cast<std::size_t>(window_of_collector_[static_cast<std::size_t>(from)]);
  if (auto why = misfit(w, answer)) return why;
  window_of_collector_[static_cast<std::size_t>(from)] = -1;
  for (const auto& group : answer.groups) groups_.push_back(group);
  for (const wire::WindowLink& link : answer.links)
    samples_.push_back({link.a, link.b, static_cast<TimeNs>(link.rtt)});
  probes_ += answer.probes;
  max_probed_ = std::max(max_probed_, answer.max_probes_per_rank);
  window_levels_ = std::max(window_levels_, static_cast<int>(answer.levels));
  if (--windows_waiting_ == 0) windows_settled();
  return std::nullopt;
}

// Why a collector's answer cannot stand for window `w`: its groups must hold every rank of the
// window exactly once and nothing else, its links join ranks of the window.
std::optional<std::string> PartitionInference::misfit(std::size_t w,
                                                      const wire::WindowGroupsMsg& answer) const {
  const std::vector<Rank>& ranks = window_ranks_[w];
  const auto index = [&](Rank r) -> std::int64_t {
    const auto it = std::lower_bound(ranks.begin(), ranks.end(), r);
    return it == ranks.end() || *it != r ? -1 : it - ranks.begin();
  };
  std::vector<bool> placed(ranks.size(), false);
  std::size_t count = 0;
  for (const auto& group : answer.groups)
    for (Rank r : group) {
      const std::int64_t i = index(r);
      if (i < 0) return "window groups name rank " + std::to_string(r) + " outside the window";
      if (placed[static_cast<std::size_t>(i)])
        return "window groups name rank " + std::to_string(r) + " twice";
      placed[static_cast<std::size_t>(i)] = true;
      ++count;
    }
  if (count != ranks.size())
    return "window groups place " + std::to_string(count) + " of the window's " +
           std::to_string(ranks.size()) + " ranks";
  for (const wire::WindowLink& link : answer.links)
    if (index(link.a) < 0 || index(link.b) < 0 || link.rtt == 0)
      return "a window link outside the window or without an RTT";
  // Every level places at least one switch: deeper rounds than ranks are no rounds.
  if (answer.levels > ranks.size()) return "window rounds deeper than the window";
  return std::nullopt;
}

void PartitionInference::count(const Order& order) {
  probes_ += order.targets.size();
  for (Rank t : order.targets) {
    auto& n = probed_[static_cast<std::size_t>(t)];
    max_probed_ = std::max<std::uint64_t>(max_probed_, ++n);
  }
}

SwitchTree PartitionInference::hierarchy() const {
  return tree_from_links(static_cast<int>(groups_.size()),
                         group_links(groups_, hosts_.size(), samples_), config_.rtt_tree_tolerance);
}

}  // namespace tsunagi
