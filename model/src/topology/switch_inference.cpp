// Switch membership from RTT rows (paper 000 §2.1) plus the multi-process-host extension.
#include "tsunagi/model/topology/switch_inference.hpp"

#include <algorithm>
#include <cstdint>
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

namespace {

// |d(i) - d(i-1)| for every gap d(i) = r(i+1) - r(i) of an ascending row, with d(-1) = 0.
std::vector<TimeNs> step_changes(const std::vector<TimeNs>& r) {
  std::vector<TimeNs> changes;
  TimeNs previous_gap = 0;
  for (std::size_t i = 0; i + 1 < r.size(); ++i) {
    const TimeNs gap = r[i + 1] - r[i];
    changes.push_back(gap > previous_gap ? gap - previous_gap : previous_gap - gap);
    previous_gap = gap;
  }
  return changes;
}

// |d(i) - d(i-1)| is large on both edges of an isolated jump: at the jump itself and at the
// flat gap right after it. The jump is the larger of the two gaps around index i.
std::size_t jump_at(const std::vector<TimeNs>& r, std::size_t i) {
  return i > 0 && r[i] - r[i - 1] > r[i + 1] - r[i] ? i - 1 : i;
}

}  // namespace

RttCut find_rtt_cut(const std::vector<TimeNs>& r, const CutRule& rule) {
  if (r.size() < 2) return {};
  const std::vector<TimeNs> changes = step_changes(r);
  const TimeNs largest = *std::max_element(changes.begin(), changes.end());
  // Paper 000 cuts at the largest change. Two levels of a network often add the same RTT (one
  // latency per level, router after router): their changes tie, and noise of a few percent
  // decides which is "largest". Every change within tie_tolerance of the largest is a
  // candidate, and the innermost significant one is the own switch: the nearest level that
  // stands out is the switch, whatever lies further out.
  const auto threshold =
      static_cast<double>(largest) * (1.0 - std::clamp(rule.tie_tolerance, 0.0, 1.0));
  std::size_t fallback = changes.size();
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (static_cast<double>(changes[i]) < threshold) continue;
    const std::size_t jump = jump_at(r, i);
    if (jump_is_significant(r[jump], r[jump + 1], rule.min_jump_ratio)) return {jump, true};
    if (fallback == changes.size()) fallback = jump;
  }
  return {fallback, false};
}

SwitchView infer_own_switch(std::vector<RttSample> raw_row, const InferenceConfig& cfg) {
  const std::vector<RttSample> row = normalise_row(std::move(raw_row));
  const std::size_t m = row.size();
  const CutRule rule{cfg.min_jump_ratio, cfg.tie_tolerance};
  std::vector<Rank> near;
  if (m <= 1) {  // nothing to compare against: whoever is there is our switch
    append_peers(row, 0, m, near);
    return finish(std::move(near), false);
  }

  const RttCut first = find_rtt_cut(rtts_of(row, 0, m), rule);
  if (!first.significant) {  // a flat row: one switch
    append_peers(row, 0, m, near);
    return finish(std::move(near), false);
  }
  const std::size_t near_end = first.index + 1;
  append_peers(row, 0, near_end, near);

  // Steps [host-mates, switch, far] with the far jump largest: the first cut already lies above
  // the switch, and the host step sits inside the near side. The near side is then the answer;
  // it must not itself be taken for host-mates (that would push the cut into the far side).
  const RttCut inner = find_rtt_cut(rtts_of(row, 0, near_end), rule);
  if (inner.significant) {
    const bool host =
        is_host_step(row[inner.index].rtt, row[inner.index + 1].rtt, cfg.colocated_ratio);
    return finish(std::move(near), host);
  }

  // A flat near side far below the rest: these are processes on our own host (mate jump
  // largest). Our switch is the next step up, found by the same rule on the remaining peers.
  if (is_host_step(row[near_end - 1].rtt, row[near_end].rtt, cfg.colocated_ratio)) {
    const RttCut second = find_rtt_cut(rtts_of(row, near_end, m), rule);
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

bool claims(const std::vector<std::vector<Rank>>& sets, std::size_t u, std::size_t v) {
  return u == v || std::binary_search(sets[u].begin(), sets[u].end(), static_cast<Rank>(v));
}

// An order-free fingerprint of u's whole view (u and its near set): equal views, equal prints.
std::uint64_t view_print(const std::vector<Rank>& near, std::size_t u) {
  auto mix = [](std::uint64_t x) {  // splitmix64's finaliser
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  };
  std::uint64_t print = mix(u + 1) + near.size();
  for (Rank v : near) print += mix(static_cast<std::uint64_t>(v) + 1);
  return print;
}

// Evidence across nodes: u keeps a peer only if a strict majority of u and the peers it
// mutually claims name that peer too. A node whose cut fell one level too far out (noise on a
// tie) names a whole neighbouring switch; its own switch-mates do not, so the far peers drop
// out of its view and it cannot join two switches. Views that agree (the usual case) are kept
// as they are without counting, so a large flat switch costs O(n x its size), not its cube.
std::vector<std::vector<Rank>> majority_views(const std::vector<std::vector<Rank>>& near) {
  std::vector<std::uint64_t> prints(near.size());
  for (std::size_t u = 0; u < near.size(); ++u) prints[u] = view_print(near[u], u);
  std::vector<std::vector<Rank>> refined(near.size());
  std::vector<std::uint32_t> votes(near.size(), 0);
  for (std::size_t u = 0; u < near.size(); ++u) {
    std::vector<std::size_t> voters{u};
    bool agree = true;
    for (Rank v : near[u]) {
      const auto w = static_cast<std::size_t>(v);
      if (!claims(near, w, u)) continue;
      voters.push_back(w);
      agree = agree && prints[w] == prints[u];
    }
    if (agree) {
      refined[u] = near[u];
      continue;
    }
    for (std::size_t w : voters)
      for (Rank x : near[w]) ++votes[static_cast<std::size_t>(x)];
    for (Rank v : near[u]) {
      // v's own view always names v: count v itself when it votes.
      const auto w = static_cast<std::size_t>(v);
      const std::size_t self = std::find(voters.begin(), voters.end(), w) != voters.end() ? 1 : 0;
      if (2 * (votes[w] + self) > voters.size()) refined[u].push_back(v);
    }
    for (std::size_t w : voters)
      for (Rank x : near[w]) votes[static_cast<std::size_t>(x)] = 0;
  }
  return refined;
}

}  // namespace

Groups combine_views(int n, const std::vector<std::vector<Rank>>& near_sets) {
  if (n <= 0) return {};
  const auto clean = majority_views(clean_near_sets(n, near_sets));
  DisjointSets sets(clean.size());
  for (std::size_t u = 0; u < clean.size(); ++u) {
    for (Rank v : clean[u]) {
      // Only mutual claims link: one node's misreading (noise, a host step taken for a switch)
      // cannot pull a whole other switch into its group.
      if (claims(clean, static_cast<std::size_t>(v), u)) sets.unite(u, static_cast<std::size_t>(v));
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
