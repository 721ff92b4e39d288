#include "rendezvous/partition_collector.hpp"

#include <algorithm>
#include <string>

namespace tsunagi {

namespace {

// Host labels for the rounds: host-mates share their measuring rank's local index, which is
// all PartitionRounds compares (same_host).
std::vector<std::string> local_hosts(const wire::WindowOrderMsg& order) {
  std::vector<std::string> hosts(order.ranks.size());
  for (std::size_t i = 0; i < hosts.size(); ++i)
    hosts[i] = std::to_string(i - static_cast<std::size_t>(order.rep_offsets[i]));
  return hosts;
}

}  // namespace

PartitionCollector::PartitionCollector(const wire::WindowOrderMsg& order,
                                       const InferenceConfig& config)
    // The collector (local 0) leads nothing: its link carries the window's orders and columns,
    // so rows measured from it would read that traffic as distance.
    : ranks_(order.ranks),
      rounds_(local_hosts(order), config, {}, 0),
      probed_(order.ranks.size(), 0) {
  // The chain probed every measuring rank once, but rank 0, where it starts.
  for (std::size_t i = 0; i < ranks_.size(); ++i)
    if (order.rep_offsets[i] == 0 && ranks_[i] != 0) probed_[i] = 1;
  for (std::uint64_t n : probed_) max_probed_ = std::max(max_probed_, n);
}

std::optional<std::size_t> PartitionCollector::local(Rank rank) const {
  const auto it = std::lower_bound(ranks_.begin(), ranks_.end(), rank);
  if (it == ranks_.end() || *it != rank) return std::nullopt;
  return static_cast<std::size_t>(it - ranks_.begin());
}

std::vector<PartitionCollector::Order> PartitionCollector::take_orders() {
  std::vector<Order> out;
  for (Order& order : rounds_.take_orders()) {
    Order global{ranks_[static_cast<std::size_t>(order.from)], {}};
    global.targets.reserve(order.targets.size());
    for (Rank t : order.targets) {
      const auto i = static_cast<std::size_t>(t);
      max_probed_ = std::max(max_probed_, ++probed_[i]);
      global.targets.push_back(ranks_[i]);
    }
    probes_ += order.targets.size();
    out.push_back(std::move(global));
  }
  return out;
}

bool PartitionCollector::on_column(Rank from, const std::vector<RttSample>& row) {
  const auto leader = local(from);
  if (!leader) return false;
  std::vector<RttSample> local_row;
  local_row.reserve(row.size());
  for (const RttSample& s : row)
    if (const auto peer = local(s.peer)) local_row.push_back({static_cast<Rank>(*peer), s.rtt});
  const auto me = static_cast<Rank>(*leader);
  if (!rounds_.on_column(me, local_row)) return false;
  for (const RttSample& s : local_row)
    if (s.rtt > 0) samples_.push_back({me, s.peer, s.rtt});
  return true;
}

wire::WindowGroupsMsg PartitionCollector::result() const {
  wire::WindowGroupsMsg out;
  const Groups& local_groups = rounds_.groups();
  for (const auto& group : local_groups) {
    std::vector<Rank> ranks;
    ranks.reserve(group.size());
    for (Rank r : group) ranks.push_back(ranks_[static_cast<std::size_t>(r)]);
    std::sort(ranks.begin(), ranks.end());
    out.groups.push_back(std::move(ranks));
  }
  // One sample per pair of groups, their smallest: the rendezvous's group_links keeps exactly
  // that minimum, so the tree is the one it would build from every sample.
  for (const GroupLink& link : group_links(local_groups, ranks_.size(), samples_))
    out.links.push_back({out.groups[static_cast<std::size_t>(link.a)].front(),
                         out.groups[static_cast<std::size_t>(link.b)].front(),
                         static_cast<std::uint64_t>(link.rtt)});
  std::sort(out.links.begin(), out.links.end(),
            [](const wire::WindowLink& x, const wire::WindowLink& y) {
              return std::pair(x.a, x.b) < std::pair(y.a, y.b);
            });
  out.probes = probes_;
  out.levels = static_cast<std::uint32_t>(rounds_.levels());
  out.max_probes_per_rank = max_probed_;
  return out;
}

}  // namespace tsunagi
