#include "rendezvous/partition_inference.hpp"

#include <algorithm>
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
  width_ = width > 0 ? width : window_width(reps_.size());
  // Hosts that fit in one window need no chain: the rounds over all of them are the window.
  if (reps_.size() > width_) {
    start_chain();
  } else {
    windows_ = 1;
    start_rounds({});
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

void PartitionInference::start_rounds(std::vector<std::vector<Rank>> parts) {
  phase_ = Phase::Windows;
  rounds_.emplace(hosts_, config_, std::move(parts));
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

// The windows' groups stand if each is a run of consecutive hosts (the premise held);
// otherwise the rounds run once more over all ranks as one part, which needs no premise.
void PartitionInference::rounds_settled() {
  levels_ += rounds_->levels();
  Groups groups = rounds_->groups();
  if (phase_ == Phase::Windows && windows_ > 1 && !groups_are_runs(groups, hosts_, reps_)) {
    fell_back_ = true;
    phase_ = Phase::Whole;
    rounds_.emplace(hosts_, config_);
    return;
  }
  groups_ = std::move(groups);
  rounds_.reset();
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
    const auto starts = window_starts(chain_, width_, config_.min_jump_ratio);
    windows_ = starts.size();
    start_rounds(window_parts(hosts_, reps_, starts));
    return true;
  }
  if (!rounds_ || !rounds_->on_column(from, row)) return false;
  for (const RttSample& s : row)
    if (s.rtt > 0) samples_.push_back({from, s.peer, s.rtt});
  return true;
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
