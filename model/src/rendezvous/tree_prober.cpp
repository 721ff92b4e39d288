#include "rendezvous/tree_prober.hpp"

namespace tsunagi {

TreeProber::TreeProber(const Groups& groups, const std::vector<std::string>& hosts,
                       const InferenceConfig& config)
    : groups_(static_cast<int>(groups.size())),
      bytes_(config.throughput_bytes),
      drop_(config.interference_drop) {
  for (const auto& group : groups) {
    std::vector<Rank> reps;
    if (!group.empty()) reps.push_back(group.front());
    for (Rank r : group) {
      const auto& host_of = [&](Rank x) -> const std::string& {
        return hosts[static_cast<std::size_t>(x)];
      };
      if (!reps.empty() && r != reps.front() && host_of(r) != host_of(reps.front())) {
        reps.push_back(r);
        break;
      }
    }
    reps_.push_back(std::move(reps));
  }
  for (TransferPath path : single_probe_paths(groups_)) add_single(path);
  for (const PathPair& pair : pair_probe_paths(groups_)) add_pair(pair);
}

// Representative `which` (0 or 1) of a group; the first one when the group has a single host.
Rank TreeProber::rep(int group, int which) const {
  const auto& reps = reps_[static_cast<std::size_t>(group)];
  return reps[std::min<std::size_t>(static_cast<std::size_t>(which), reps.size() - 1)];
}

void TreeProber::add_single(TransferPath path) {
  sets_.push_back({Transfer{path, rep(path.from, 0), rep(path.to, 0)}});
}

void TreeProber::add_pair(const PathPair& pair) {
  const auto [p, q] = pair;
  // A shared sender sends from two different machines of its switch.
  const int second = p.from == q.from ? 1 : 0;
  sets_.push_back(
      {Transfer{p, rep(p.from, 0), rep(p.to, 0)}, Transfer{q, rep(q.from, second), rep(q.to, 0)}});
}

std::vector<TreeProber::Order> TreeProber::next_orders() {
  std::vector<Order> orders;
  if (waiting_ > 0 || next_set_ >= sets_.size()) return orders;
  const std::size_t index = next_set_++;
  const Set& set = sets_[index];
  for (std::size_t k = 0; k < set.size(); ++k) {
    orders.push_back({set[k].from, {index * 2 + k, set[k].to, bytes_}});
  }
  waiting_ = static_cast<int>(set.size());
  transfers_ += set.size();
  return orders;
}

bool TreeProber::on_result(const wire::ProbeResultMsg& result) {
  const std::size_t index = result.probe / 2;
  const std::size_t k = result.probe % 2;
  // Only answers to the set in flight count; anything else is stale or forged.
  if (waiting_ == 0 || index + 1 != next_set_ || k >= sets_[index].size()) return false;
  Transfer& transfer = sets_[index][k];
  if (transfer.rate != 0) return false;
  if (result.ok && result.elapsed > 0) {
    transfer.rate = static_cast<double>(result.bytes) * 1e9 / static_cast<double>(result.elapsed);
  } else {
    transfer.rate = -1;  // answered, not measured
    ++failed_;
  }
  return --waiting_ == 0;
}

SwitchTree TreeProber::infer() const {
  const auto cell = [&](TransferPath p) {
    return static_cast<std::size_t>(p.from) * static_cast<std::size_t>(groups_) +
           static_cast<std::size_t>(p.to);
  };
  std::vector<double> alone(static_cast<std::size_t>(groups_) * static_cast<std::size_t>(groups_));
  for (const Set& set : sets_)
    if (set.size() == 1) alone[cell(set[0].path)] = set[0].rate;
  InterferenceRelation relation(groups_);
  for (const Set& set : sets_) {
    if (set.size() != 2) continue;
    const double alone_a = alone[cell(set[0].path)];
    const double alone_b = alone[cell(set[1].path)];
    // A failed transfer leaves the pair unmeasured, which the tree reads as interfering.
    if (alone_a <= 0 || alone_b <= 0 || set[0].rate <= 0 || set[1].rate <= 0) continue;
    relation.record(set[0].path, set[1].path,
                    !transfers_interfere(alone_a, set[0].rate, alone_b, set[1].rate, drop_));
  }
  return infer_switch_tree(relation);
}

}  // namespace tsunagi
