#include "rendezvous/partition_rounds.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace tsunagi {

PartitionRounds::PartitionRounds(const std::vector<std::string>& hosts,
                                 const InferenceConfig& config,
                                 std::vector<std::vector<Rank>> parts, Rank never_leads)
    : hosts_(hosts),
      config_(config),
      placed_(hosts.size(), false),
      part_of_(hosts.size(), -1),
      slot_of_(hosts.size(), -1),
      probed_(hosts.size(), 0),
      never_leads_(never_leads) {
  // The leaders' cut takes the innermost significant step: a part's row may lack the levels
  // further out, so the largest step in it says nothing (see the header).
  config_.tie_tolerance = 1.0;
  if (parts.empty()) {
    parts.emplace_back();
    for (std::size_t r = 0; r < hosts.size(); ++r) parts[0].push_back(static_cast<Rank>(r));
  }
  for (auto& members : parts) {
    std::sort(members.begin(), members.end());
    if (!members.empty()) start(Part{std::move(members), 0, {}, {}, {}, 0});
  }
}

void PartitionRounds::start(Part part) {
  levels_ = std::max(levels_, part.level + 1);
  // One rank per host measures: host-mates are near by their label and see the same RTTs.
  std::map<std::string, Rank> host_rep;
  for (Rank r : part.members) {
    const std::string& host = host_of(r);
    if (host.empty() || host_rep.emplace(host, r).second) part.probing.push_back(r);
  }
  if (part.probing.size() <= 1) {  // one host: nothing to tell apart
    for (Rank r : part.members) placed_[static_cast<std::size_t>(r)] = true;
    groups_.push_back(std::move(part.members));
    return;
  }
  // Leaders spread over the part in rank order: processes are usually placed in blocks, so
  // this tends to put them under different switches; where it does not, the recursion only
  // takes more levels (never a wrong group). Any measuring host may lead: the argument in the
  // header holds for every choice, so the one that must not is simply left out.
  const std::size_t m = part.probing.size();
  std::vector<Rank> candidates;
  for (Rank r : part.probing)
    if (r != never_leads_) candidates.push_back(r);
  const std::size_t c = candidates.size();
  const std::size_t k =
      std::min(c, static_cast<std::size_t>(std::max(2, config_.partition_leaders)));
  for (std::size_t i = 0; i < k; ++i) part.leaders.push_back(candidates[i * c / k]);
  part.rtt.assign(m, std::vector<TimeNs>(k, -1));
  part.waiting = k;
  const auto index = static_cast<std::int64_t>(parts_.size());
  for (std::size_t i = 0; i < k; ++i) {
    part_of_[static_cast<std::size_t>(part.leaders[i])] = index;
    slot_of_[static_cast<std::size_t>(part.leaders[i])] = static_cast<std::int64_t>(i);
  }
  parts_.push_back(std::move(part));
  ready_.push_back(static_cast<std::size_t>(index));
  ++parts_open_;
}

// Leaders measure (each paces its own probes, rtt_parallel at a time), and each starts at its
// own place in the part, so the part's ranks are not probed by all leaders at once: probes
// that pile up on one host link would add queueing to the RTTs.
std::vector<PartitionRounds::Order> PartitionRounds::take_orders() {
  std::vector<Order> orders;
  for (std::size_t index : std::exchange(ready_, {})) {
    const Part& part = parts_[index];
    const std::size_t m = part.probing.size();
    for (std::size_t li = 0; li < part.leaders.size(); ++li) {
      Order order{part.leaders[li], {}};
      const std::size_t first = li * m / part.leaders.size();
      for (std::size_t i = 0; i < m; ++i) {
        const Rank target = part.probing[(first + i) % m];
        if (target == order.from) continue;
        order.targets.push_back(target);
        auto& probed = probed_[static_cast<std::size_t>(target)];
        max_probed_ = std::max(max_probed_, ++probed);
      }
      probes_ += order.targets.size();
      orders.push_back(std::move(order));
    }
  }
  return orders;
}

bool PartitionRounds::on_column(Rank from, const std::vector<RttSample>& row) {
  if (from < 0 || static_cast<std::size_t>(from) >= part_of_.size()) return false;
  const std::int64_t index = part_of_[static_cast<std::size_t>(from)];
  if (index < 0) return false;
  part_of_[static_cast<std::size_t>(from)] = -1;
  Part& part = parts_[static_cast<std::size_t>(index)];
  const auto li = static_cast<std::size_t>(slot_of_[static_cast<std::size_t>(from)]);
  for (const RttSample& s : row) {
    const auto it = std::lower_bound(part.probing.begin(), part.probing.end(), s.peer);
    if (it != part.probing.end() && *it == s.peer && s.peer != from && s.rtt > 0)
      part.rtt[static_cast<std::size_t>(it - part.probing.begin())][li] = s.rtt;
  }
  if (--part.waiting == 0) settle(static_cast<std::size_t>(index));
  return true;
}

void PartitionRounds::settle(std::size_t index) {
  Part part = std::move(parts_[index]);
  parts_[index] = Part{};
  --parts_open_;
  const auto beyond = place_leader_groups(part);
  for (auto& cell : split_rest(part, beyond))
    start(Part{std::move(cell), part.level + 1, {}, {}, {}, 0});
}

// Each leader's row over the part gives its switch; a leader an earlier one already took in is
// skipped (two leaders on one switch find the same group). Returns, per leader, the RTTs of its
// row beyond its switch (ascending), from which split_rest draws its reach.
std::vector<std::vector<TimeNs>> PartitionRounds::place_leader_groups(const Part& part) {
  std::vector<std::vector<TimeNs>> beyond(part.leaders.size());
  for (std::size_t li = 0; li < part.leaders.size(); ++li) {
    const Rank leader = part.leaders[li];
    if (placed_[static_cast<std::size_t>(leader)]) continue;
    std::vector<RttSample> row;
    for (std::size_t pi = 0; pi < part.probing.size(); ++pi) {
      const TimeNs rtt = part.rtt[pi][li];
      if (part.probing[pi] != leader && rtt > 0) row.push_back({part.probing[pi], rtt});
    }
    const SwitchView view = infer_own_switch(row, config_);
    const TimeNs edge = note_spread(row, view.near);
    for (const RttSample& x : row)
      if (x.rtt > edge && !std::binary_search(view.near.begin(), view.near.end(), x.peer))
        beyond[li].push_back(x.rtt);
    std::sort(beyond[li].begin(), beyond[li].end());
    std::set<std::string> hosts{host_of(leader)};
    for (Rank n : view.near) hosts.insert(host_of(n));
    hosts.erase(std::string{});  // an empty label names no host
    std::vector<Rank> group;
    for (Rank r : part.members) {
      if (placed_[static_cast<std::size_t>(r)]) continue;
      if (r == leader || hosts.contains(host_of(r)) ||
          std::binary_search(view.near.begin(), view.near.end(), r))
        group.push_back(r);
    }
    for (Rank r : group) placed_[static_cast<std::size_t>(r)] = true;
    groups_.push_back(std::move(group));
  }
  return beyond;
}

// How far RTTs to one switch spread (noise, unequal host links): the largest spread between a
// leader and its switch-mates seen so far. Returns the largest RTT to a switch-mate (-1: none).
TimeNs PartitionRounds::note_spread(const std::vector<RttSample>& row,
                                    const std::vector<Rank>& near) {
  TimeNs low = -1, high = -1;
  for (const RttSample& s : row) {
    if (!std::binary_search(near.begin(), near.end(), s.peer)) continue;
    low = low < 0 ? s.rtt : std::min(low, s.rtt);
    high = std::max(high, s.rtt);
  }
  if (low >= 0) spread_ = std::max(spread_, high - low);
  return high;
}

// A leader's reach: the innermost clear gap in its row beyond its switch (the next level of
// the tree around it). Clear = at least four times the spread inside a switch and 1 % of the
// RTT, so that no rank's noise can carry it across: the reach is decided once per leader, and
// each rank's side of it is then beyond doubt. -1: no clear gap (a flat part).
TimeNs PartitionRounds::reach_of(const std::vector<TimeNs>& beyond) const {
  for (std::size_t i = 1; i < beyond.size(); ++i) {
    const TimeNs gap = beyond[i] - beyond[i - 1];
    if (gap > 4 * spread_ && gap * 100 >= beyond[i - 1]) return beyond[i - 1] + gap / 2;
  }
  return -1;
}

// The ranks no leader took join the part of the lowest leader whose reach holds them, or a
// part of their own when none does. A switch's ranks measure the same RTTs up to the spread,
// and every reach lies in a clear gap, so a switch is never torn apart.
std::vector<std::vector<Rank>> PartitionRounds::split_rest(
    const Part& part, const std::vector<std::vector<TimeNs>>& beyond) const {
  std::vector<TimeNs> reach;
  for (const auto& b : beyond) reach.push_back(reach_of(b));
  std::vector<std::vector<Rank>> cells(part.leaders.size() + 1);
  std::map<std::string, std::size_t> host_cell;
  std::size_t pi = 0;
  for (Rank r : part.members) {
    while (pi < part.probing.size() && part.probing[pi] < r) ++pi;
    if (placed_[static_cast<std::size_t>(r)]) continue;
    const bool probed = pi < part.probing.size() && part.probing[pi] == r;
    if (!probed) {  // a host-mate of a rank that measured (a lower rank: already assigned)
      cells[host_cell.at(host_of(r))].push_back(r);
      continue;
    }
    const auto& rtts = part.rtt[pi];
    std::size_t cell = 0;
    while (cell < reach.size() && !(rtts[cell] > 0 && rtts[cell] < reach[cell])) ++cell;
    if (!host_of(r).empty()) host_cell[host_of(r)] = cell;
    cells[cell].push_back(r);
  }
  std::erase_if(cells, [](const std::vector<Rank>& c) { return c.empty(); });
  return cells;
}

}  // namespace tsunagi
