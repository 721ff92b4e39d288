#include "tsunagi/model/multicast/schedule.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <stdexcept>

namespace tsunagi::multicast {
namespace {

struct Named {
  Algorithm algorithm;
  const char* name;
};
constexpr Named kNames[] = {{Algorithm::Auto, "auto"},
                            {Algorithm::Binomial, "binomial"},
                            {Algorithm::ScatterRing, "scatter_ring"},
                            {Algorithm::ScatterDoubling, "scatter_doubling"},
                            {Algorithm::Topology, "topology"},
                            {Algorithm::Pipeline, "pipeline"}};

// Smallest power of two >= members: the span of the root's subtree.
int root_span(int members) {
  return static_cast<int>(std::bit_ceil(static_cast<unsigned>(std::max(1, members))));
}

int lowbit(int v) {
  return v & -v;
}

// The binomial tree over `nodes` (indices 0..size-1 of that list), appended to `tree` with
// the list's values as tree indices.
void add_binomial(const std::vector<int>& nodes, SendTree& tree) {
  const int size = static_cast<int>(nodes.size());
  for (int v = 0; v < size; ++v) {
    const int span = v == 0 ? root_span(size) : lowbit(v);
    for (int step = span / 2; step >= 1; step /= 2) {
      if (v + step >= size) continue;
      tree.children[nodes[v]].push_back(nodes[v + step]);
      tree.parent[nodes[v + step]] = nodes[v];
    }
  }
}

}  // namespace

const char* to_string(Algorithm algorithm) {
  for (const Named& named : kNames)
    if (named.algorithm == algorithm) return named.name;
  return "?";
}

bool parse_algorithm(const std::string& text, Algorithm& out) {
  for (const Named& named : kNames) {
    if (text == named.name) {
      out = named.algorithm;
      return true;
    }
  }
  return false;
}

bool is_power_of_two(int value) {
  return value > 0 && std::has_single_bit(static_cast<unsigned>(value));
}

Choice choose(Algorithm requested, std::uint64_t bytes, int members, bool have_groups,
              const Thresholds& thresholds) {
  const std::string size = std::to_string(bytes) + " B, " + std::to_string(members) + " members";
  switch (requested) {
    case Algorithm::Binomial:
    case Algorithm::ScatterRing:
    case Algorithm::Pipeline:
      return {requested, "requested"};
    case Algorithm::ScatterDoubling:
      if (is_power_of_two(members)) return {requested, "requested"};
      return {Algorithm::ScatterRing, "doubling needs a power-of-two group: " + size};
    case Algorithm::Topology:
      if (have_groups) return {requested, "requested"};
      return {Algorithm::Binomial, "topology needs inferred switch groups; none are known"};
    case Algorithm::Auto:
      break;
  }
  // The pipeline first: it beats a binomial tree on few members too (each member's link carries
  // the message once, where a binomial root sends it log2 p times).
  if (thresholds.pipeline_min_bytes > 0 && bytes >= thresholds.pipeline_min_bytes)
    return {Algorithm::Pipeline,
            "auto: " + size + ", from " + std::to_string(thresholds.pipeline_min_bytes) + " B"};
  if (bytes <= thresholds.binomial_max_bytes || members < thresholds.binomial_below_members)
    return {Algorithm::Binomial,
            "auto: " + size + " (binomial up to " + std::to_string(thresholds.binomial_max_bytes) +
                " B or below " + std::to_string(thresholds.binomial_below_members) + " members)"};
  if (bytes <= thresholds.doubling_max_bytes && is_power_of_two(members))
    return {Algorithm::ScatterDoubling, "auto: " + size + ", a power of two, up to " +
                                            std::to_string(thresholds.doubling_max_bytes) + " B"};
  return {Algorithm::ScatterRing, "auto: " + size};
}

SendTree binomial_tree(int members) {
  if (members < 1) throw std::invalid_argument("a multicast tree needs at least one member");
  SendTree tree;
  tree.parent.assign(static_cast<std::size_t>(members), -1);
  tree.children.resize(static_cast<std::size_t>(members));
  std::vector<int> nodes(static_cast<std::size_t>(members));
  for (int v = 0; v < members; ++v) nodes[v] = v;
  add_binomial(nodes, tree);
  return tree;
}

SendTree topology_tree(const std::vector<int>& group_of) {
  const int members = static_cast<int>(group_of.size());
  if (members < 1) throw std::invalid_argument("a multicast tree needs at least one member");
  // Groups in the order of their first member; the first member of each is its leader.
  std::map<int, std::size_t> index_of_group;
  std::vector<std::vector<int>> groups;
  for (int v = 0; v < members; ++v) {
    auto [it, fresh] = index_of_group.emplace(group_of[v], groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(v);
  }
  SendTree tree;
  tree.parent.assign(static_cast<std::size_t>(members), -1);
  tree.children.resize(static_cast<std::size_t>(members));
  std::vector<int> leaders;
  for (const auto& group : groups) leaders.push_back(group.front());
  // Leaders first: a leader sends across groups before it serves its own group.
  add_binomial(leaders, tree);
  for (const auto& group : groups) add_binomial(group, tree);
  return tree;
}

ChunkRange binomial_subtree(int v, int members) {
  if (v < 0 || v >= members) throw std::out_of_range("no such member");
  const int span = v == 0 ? root_span(members) : lowbit(v);
  return {v, std::min(members, v + span)};
}

ByteRange bytes_of(ChunkRange range, std::uint64_t total, int chunks) {
  const std::uint64_t chunk =
      chunks > 0 ? (total + chunks - 1) / static_cast<std::uint64_t>(chunks) : 0;
  const auto clip = [&](int index) {
    return std::min(total, chunk * static_cast<std::uint64_t>(index));
  };
  return {clip(range.first), clip(range.last) - clip(range.first)};
}

std::uint64_t segment_bytes(std::uint64_t bytes, int members, std::uint64_t setting) {
  if (setting > 0) return setting;
  // A chain of p members with k segments takes (k + p - 1) segment times: k = 6p spends a
  // sixth of the message's own time on filling the chain (measured on xc30-256, 8 MB to 256:
  // k = 4p 2.57 ms, 6p 2.42 ms, 8p 2.45 ms); below 4 KiB the per-message costs (headers, a
  // hop's latency per segment) grow faster than the fill time falls.
  const std::uint64_t share = bytes / (6 * static_cast<std::uint64_t>(std::max(1, members)));
  const std::uint64_t kib = (share + 1023) / 1024 * 1024;
  return std::clamp<std::uint64_t>(kib, kMinAutoSegment, kMaxAutoSegment);
}

int segment_count(std::uint64_t bytes, std::uint64_t segment) {
  if (bytes == 0 || segment == 0) return 1;
  return static_cast<int>((bytes + segment - 1) / segment);
}

int doubling_partner(int v, int step) {
  return v ^ (1 << step);
}

ChunkRange doubling_block(int v, int step) {
  const int size = 1 << step;
  const int first = v & ~(size - 1);
  return {first, first + size};
}

int doubling_steps(int members) {
  return std::countr_zero(static_cast<unsigned>(members));
}

}  // namespace tsunagi::multicast
