#include "rendezvous/partition_windows.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace tsunagi {
namespace {

// The representative index of every rank's host.
std::vector<std::size_t> rep_index_of_ranks(const std::vector<std::string>& hosts,
                                            const std::vector<Rank>& reps) {
  std::unordered_map<std::string, std::size_t> of_host;
  for (std::size_t i = 0; i < reps.size(); ++i) {
    const std::string& h = hosts[static_cast<std::size_t>(reps[i])];
    if (!h.empty()) of_host.emplace(h, i);
  }
  std::vector<std::size_t> index(hosts.size());
  std::size_t next_rep = 0;
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    while (next_rep < reps.size() && static_cast<std::size_t>(reps[next_rep]) < r) ++next_rep;
    const bool is_rep = next_rep < reps.size() && static_cast<std::size_t>(reps[next_rep]) == r;
    index[r] = is_rep ? next_rep : of_host.at(hosts[r]);
  }
  return index;
}

bool steps_above(TimeNs d, TimeNs neighbour, double ratio) {
  return neighbour > 0 && static_cast<double>(d) >= (1 + ratio) * static_cast<double>(neighbour);
}

}  // namespace

std::vector<Rank> host_representatives(const std::vector<std::string>& hosts) {
  std::vector<Rank> reps;
  std::unordered_map<std::string, Rank> seen;
  for (std::size_t r = 0; r < hosts.size(); ++r)
    if (hosts[r].empty() || seen.emplace(hosts[r], static_cast<Rank>(r)).second)
      reps.push_back(static_cast<Rank>(r));
  return reps;
}

std::vector<std::size_t> window_starts(const std::vector<TimeNs>& chain, std::size_t width,
                                       double min_jump_ratio) {
  std::vector<std::size_t> starts{0};
  const auto proven = [&](std::size_t i) {
    if (chain[i] <= 0) return false;
    return (i > 0 && steps_above(chain[i], chain[i - 1], min_jump_ratio)) ||
           (i + 1 < chain.size() && steps_above(chain[i], chain[i + 1], min_jump_ratio));
  };
  for (std::size_t i = 0; i < chain.size(); ++i)
    if (i + 1 - starts.back() >= width && proven(i)) starts.push_back(i + 1);
  return starts;
}

std::vector<std::vector<Rank>> window_parts(const std::vector<std::string>& hosts,
                                            const std::vector<Rank>& reps,
                                            const std::vector<std::size_t>& starts) {
  const std::vector<std::size_t> rep_of = rep_index_of_ranks(hosts, reps);
  std::vector<std::vector<Rank>> parts(starts.size());
  for (std::size_t r = 0; r < hosts.size(); ++r) {
    const auto after = std::upper_bound(starts.begin(), starts.end(), rep_of[r]);
    parts[static_cast<std::size_t>(after - starts.begin()) - 1].push_back(static_cast<Rank>(r));
  }
  std::erase_if(parts, [](const std::vector<Rank>& p) { return p.empty(); });
  return parts;
}

bool groups_are_runs(const Groups& groups, const std::vector<std::string>& hosts,
                     const std::vector<Rank>& reps) {
  const std::vector<std::size_t> rep_of = rep_index_of_ranks(hosts, reps);
  for (const auto& group : groups) {
    std::vector<std::size_t> at;
    for (Rank r : group) at.push_back(rep_of[static_cast<std::size_t>(r)]);
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    if (!at.empty() && at.back() - at.front() + 1 != at.size()) return false;
  }
  return true;
}

std::size_t window_width(std::size_t hosts, int least) {
  const auto root = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(hosts))));
  return std::max<std::size_t>(static_cast<std::size_t>(std::max(2, least)), 2 * root);
}

}  // namespace tsunagi
