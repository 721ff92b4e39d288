// Switch membership from RTT rows (paper 000 §2.1) plus the multi-process-host extension.
#include "tsunagi/model/topology/switch_inference.hpp"

#include <algorithm>
#include <numeric>

namespace tsunagi {

namespace {

// A row cleaned for the cut rule: one entry per peer (its minimum RTT), ascending by (rtt, peer)
// so ties are broken the same way on every node and every platform.
std::vector<RttSample> normalise_row(std::vector<RttSample> row) {
  std::erase_if(row, [](const RttSample& s) { return s.peer < 0; });
  for (auto& s : row) s.rtt = std::max<TimeNs>(s.rtt, 0);  // a clock glitch is not a shortcut
  std::sort(row.begin(), row.end(), [](const RttSample& a, const RttSample& b) {
    return a.peer != b.peer ? a.peer < b.peer : a.rtt < b.rtt;
  });
  row.erase(std::unique(row.begin(), row.end(),
                        [](const RttSample& a, const RttSample& b) { return a.peer == b.peer; }),
            row.end());
  std::sort(row.begin(), row.end(), [](const RttSample& a, const RttSample& b) {
    return a.rtt != b.rtt ? a.rtt < b.rtt : a.peer < b.peer;
  });
  return row;
}

// The paper's significance guard: the far side must be clearly slower, not just noisily so.
bool jump_is_significant(TimeNs lower, TimeNs upper, double min_jump_ratio) {
  if (lower == 0) return upper > 0;  // any delay over a zero RTT is a real step
  return static_cast<double>(upper) >= (1.0 + min_jump_ratio) * static_cast<double>(lower);
}

// A step is a host boundary when everything below it is tiny next to what lies above it
// (loopback vs. a switch). Rows are sorted, so checking the largest near-side RTT suffices.
bool is_host_step(TimeNs largest_near, TimeNs smallest_far, double colocated_ratio) {
  return static_cast<double>(largest_near) <= colocated_ratio * static_cast<double>(smallest_far);
}

std::vector<TimeNs> rtts_of(const std::vector<RttSample>& row, std::size_t begin, std::size_t end) {
  std::vector<TimeNs> out;
  out.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i) out.push_back(row[i].rtt);
  return out;
}

void append_peers(const std::vector<RttSample>& row, std::size_t begin, std::size_t end,
                  std::vector<Rank>& out) {
  for (std::size_t i = begin; i < end; ++i) out.push_back(row[i].peer);
}

SwitchView finish(std::vector<Rank> near, bool colocated_step) {
  std::sort(near.begin(), near.end());
  return SwitchView{std::move(near), colocated_step};
}

}  // namespace

RttCut find_rtt_cut(const std::vector<TimeNs>& r, double min_jump_ratio) {
  if (r.size() < 2) return {};
  // d(i) = r(i+1) - r(i); pick the i where d(i) and d(i-1) differ most (d(-1) = 0), first on ties.
  std::size_t best = 0;
  TimeNs best_change = -1;
  TimeNs previous_gap = 0;
  for (std::size_t i = 0; i + 1 < r.size(); ++i) {
    const TimeNs gap = r[i + 1] - r[i];
    const TimeNs change = gap > previous_gap ? gap - previous_gap : previous_gap - gap;
    if (change > best_change) {
      best_change = change;
      best = i;
    }
    previous_gap = gap;
  }
  // |d(i) - d(i-1)| is large on both edges of an isolated jump: at the jump itself and at the
  // flat gap right after it. On an exact step the first edge wins the tie, but with noise the
  // second can win by a hair and would cut one peer too late (and then fail the significance
  // test). The jump is the larger of the two gaps around the chosen index, so step back to it.
  if (best > 0 && r[best] - r[best - 1] > r[best + 1] - r[best]) --best;
  return RttCut{best, jump_is_significant(r[best], r[best + 1], min_jump_ratio)};
}

SwitchView infer_own_switch(std::vector<RttSample> raw_row, const InferenceConfig& cfg) {
  const std::vector<RttSample> row = normalise_row(std::move(raw_row));
  const std::size_t m = row.size();
  std::vector<Rank> near;
  if (m <= 1) {  // nothing to compare against: whoever is there is our switch
    append_peers(row, 0, m, near);
    return finish(std::move(near), false);
  }

  const RttCut first = find_rtt_cut(rtts_of(row, 0, m), cfg.min_jump_ratio);
  if (!first.significant) {  // a flat row: one switch
    append_peers(row, 0, m, near);
    return finish(std::move(near), false);
  }
  const std::size_t near_end = first.index + 1;
  append_peers(row, 0, near_end, near);

  // Steps [host-mates, switch, far] with the far jump largest: the first cut already lies above
  // the switch, and the host step sits inside the near side. The near side is then the answer;
  // it must not itself be taken for host-mates (that would push the cut into the far side).
  const RttCut inner = find_rtt_cut(rtts_of(row, 0, near_end), cfg.min_jump_ratio);
  if (inner.significant) {
    const bool host =
        is_host_step(row[inner.index].rtt, row[inner.index + 1].rtt, cfg.colocated_ratio);
    return finish(std::move(near), host);
  }

  // A flat near side far below the rest: these are processes on our own host (mate jump
  // largest). Our switch is the next step up, found by the same rule on the remaining peers.
  if (is_host_step(row[near_end - 1].rtt, row[near_end].rtt, cfg.colocated_ratio)) {
    const RttCut second = find_rtt_cut(rtts_of(row, near_end, m), cfg.min_jump_ratio);
    const std::size_t switch_end = second.significant ? near_end + second.index + 1 : m;
    append_peers(row, near_end, switch_end, near);
    return finish(std::move(near), true);
  }
  return finish(std::move(near), false);
}

namespace {

// Union-find over ranks; the smaller root always wins so results never depend on link order.
class DisjointSets {
 public:
  explicit DisjointSets(std::size_t n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), std::size_t{0});
  }
  std::size_t find(std::size_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];  // path halving keeps trees shallow
      x = parent_[x];
    }
    return x;
  }
  void unite(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::vector<std::size_t> parent_;
};

// near_sets[u] restricted to valid ranks other than u, sorted and unique for binary search.
std::vector<std::vector<Rank>> clean_near_sets(int n,
                                               const std::vector<std::vector<Rank>>& near_sets) {
  std::vector<std::vector<Rank>> clean(static_cast<std::size_t>(n));
  const std::size_t known = std::min(clean.size(), near_sets.size());
  for (std::size_t u = 0; u < known; ++u) {
    for (Rank v : near_sets[u]) {
      if (v >= 0 && v < n && static_cast<std::size_t>(v) != u) clean[u].push_back(v);
    }
    std::sort(clean[u].begin(), clean[u].end());
    clean[u].erase(std::unique(clean[u].begin(), clean[u].end()), clean[u].end());
  }
  return clean;
}

}  // namespace

Groups combine_views(int n, const std::vector<std::vector<Rank>>& near_sets) {
  if (n <= 0) return {};
  const auto clean = clean_near_sets(n, near_sets);
  DisjointSets sets(clean.size());
  for (std::size_t u = 0; u < clean.size(); ++u) {
    for (Rank v : clean[u]) {
      // Only mutual claims link: one node's misreading (noise, a host step taken for a switch)
      // cannot pull a whole other switch into its group.
      const auto& back = clean[static_cast<std::size_t>(v)];
      if (std::binary_search(back.begin(), back.end(), static_cast<Rank>(u))) {
        sets.unite(u, static_cast<std::size_t>(v));
      }
    }
  }
  // Walking ranks upwards makes each group sorted and orders groups by their smallest rank.
  Groups groups;
  std::vector<std::size_t> group_of_root(clean.size(), clean.size());
  for (std::size_t r = 0; r < clean.size(); ++r) {
    const std::size_t root = sets.find(r);
    if (group_of_root[root] == clean.size()) {
      group_of_root[root] = groups.size();
      groups.emplace_back();
    }
    groups[group_of_root[root]].push_back(static_cast<Rank>(r));
  }
  return groups;
}

}  // namespace tsunagi
