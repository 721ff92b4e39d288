// Switch inference from RTT rows (paper 000 §2.1 + multi-process hosts) and view combination.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <vector>

#include "tsunagi/model/rng.hpp"
#include "tsunagi/model/topology/switch_inference.hpp"

using namespace tsunagi;

namespace {

// These tables have no host labels: detect host-mates from RTTs (protocol.inference
// .colocated_ratio), as a deployment without meaningful host names would.
const InferenceConfig kRttHosts = [] {
  InferenceConfig c;
  c.colocated_ratio = 0.25;
  return c;
}();

// Paper 000's rule: the largest step, the first of exact ties.
const CutRule kPaperRule{0.3, 0};

constexpr TimeNs us(double micros) {
  return static_cast<TimeNs>(micros * 1000.0);
}

// Ground truth of a synthetic cluster: which switch and which host each rank sits on.
struct Layout {
  std::vector<int> switch_of;
  std::vector<int> host_of;
  int size() const { return static_cast<int>(switch_of.size()); }
};

// `switches` switches of `hosts` hosts with `per_host` processes each, ranks numbered in order.
Layout regular_layout(int switches, int hosts, int per_host) {
  Layout layout;
  for (int s = 0; s < switches; ++s) {
    for (int h = 0; h < hosts; ++h) {
      for (int p = 0; p < per_host; ++p) {
        layout.switch_of.push_back(s);
        layout.host_of.push_back(s * hosts + h);
      }
    }
  }
  return layout;
}

using RttModel = std::function<double(Rank u, Rank v)>;  // true RTT in microseconds

// Node u's measured row: the model's RTT times (1 +- noise), drawn independently per pair.
std::vector<RttSample> measure_row(Rank u, int n, const RttModel& model, double noise, Rng& rng) {
  std::vector<RttSample> row;
  for (Rank v = 0; v < n; ++v) {
    if (v == u) continue;
    const double factor = 1.0 + noise * (2.0 * rng.uniform01() - 1.0);
    row.push_back({v, us(model(u, v) * factor)});
  }
  return row;
}

std::vector<Rank> true_switch_mates(const Layout& layout, Rank u) {
  std::vector<Rank> mates;
  for (Rank v = 0; v < layout.size(); ++v) {
    if (v != u && layout.switch_of[v] == layout.switch_of[u]) mates.push_back(v);
  }
  return mates;
}

Groups true_groups(const Layout& layout) {
  std::vector<std::vector<Rank>> near(static_cast<std::size_t>(layout.size()));
  for (Rank u = 0; u < layout.size(); ++u) near[u] = true_switch_mates(layout, u);
  return combine_views(layout.size(), near);
}

// Runs inference on every node and checks each view against the truth; returns the views.
std::vector<std::vector<Rank>> infer_all(const Layout& layout, const RttModel& model, double noise,
                                         std::uint64_t seed, bool expect_colocated) {
  Rng rng(seed);
  std::vector<std::vector<Rank>> views;
  for (Rank u = 0; u < layout.size(); ++u) {
    const SwitchView view =
        infer_own_switch(measure_row(u, layout.size(), model, noise, rng), kRttHosts);
    INFO("node " << u);
    CHECK(view.near == true_switch_mates(layout, u));
    CHECK(view.colocated_step == expect_colocated);
    views.push_back(view.near);
  }
  return views;
}

}  // namespace

TEST_CASE("two switches of 14 with multiplicative noise", "[switch_inference]") {
  const Layout layout = regular_layout(2, 14, 1);
  const RttModel model = [&](Rank u, Rank v) {
    return layout.switch_of[u] == layout.switch_of[v] ? 100.0 : 200.0;
  };
  const auto views = infer_all(layout, model, 0.03, 11, false);
  CHECK(combine_views(layout.size(), views) == true_groups(layout));
}

TEST_CASE("8 switches of 14 in a two-level hierarchy cut between the 13th and 14th peer",
          "[switch_inference]") {
  // Paper 000 Fig. 4 / §4.1: 112 nodes, 14 per switch, switches joined hierarchically. Leaves
  // 0-3 hang off one aggregation switch, 4-7 off another. Host link h, leaf link L, root link L':
  // same switch 4h, sibling 4h+4L, cousin 4h+4L+4L' (round trips cross each link twice per way).
  const double h = 25, leaf = 15, root = 10;
  const Layout layout = regular_layout(8, 14, 1);
  const RttModel model = [&](Rank u, Rank v) {
    const int su = layout.switch_of[u], sv = layout.switch_of[v];
    if (su == sv) return 4 * h;
    if (su / 4 == sv / 4) return 4 * h + 4 * leaf;
    return 4 * h + 4 * leaf + 4 * root;
  };
  const auto views = infer_all(layout, model, 0.02, 12, false);
  for (const auto& near : views) CHECK(near.size() == 13);
  CHECK(combine_views(layout.size(), views) == true_groups(layout));
}

TEST_CASE("one switch with noise has no cut", "[switch_inference]") {
  const Layout layout = regular_layout(1, 14, 1);
  infer_all(
      layout, [](Rank, Rank) { return 100.0; }, 0.05, 13, false);
}

TEST_CASE("the cut rule: ties, the noisy edge and significance", "[switch_inference]") {
  // Two equal jumps: ties go to the smallest index, so the lowest step is the switch.
  CHECK(find_rtt_cut({100, 100, 100, 200, 200, 200, 300, 300, 300}, kPaperRule).index == 2);
  // Noise makes the second difference peak just after the jump (195 vs 190); the cut must
  // still sit at the jump itself.
  const RttCut noisy = find_rtt_cut({100, 105, 300, 300}, kPaperRule);
  CHECK(noisy.index == 1);
  CHECK(noisy.significant);
  // A 20 % step is below the 30 % guard; a jump over an exactly-zero RTT always counts.
  CHECK_FALSE(find_rtt_cut({100, 100, 120, 120}, kPaperRule).significant);
  CHECK(find_rtt_cut({0, 0, 1, 1}, kPaperRule).significant);
  CHECK_FALSE(find_rtt_cut({0, 0, 0}, kPaperRule).significant);
  CHECK_FALSE(find_rtt_cut({5}, kPaperRule).significant);

  // Equal RTTs are ordered by rank, so the input order never changes the answer.
  std::vector<RttSample> row = {{4, us(200)}, {1, us(100)}, {3, us(200)},
                                {2, us(100)}, {5, us(200)}, {0, us(100)}};
  const SwitchView forward = infer_own_switch(row, kRttHosts);
  std::reverse(row.begin(), row.end());
  CHECK(infer_own_switch(row, kRttHosts).near == forward.near);
  CHECK(forward.near == std::vector<Rank>{0, 1, 2});
}

TEST_CASE("two processes per host on several switches, both orders of jump size",
          "[switch_inference]") {
  const Layout layout = regular_layout(4, 7, 2);
  struct Case {
    const char* name;
    double mate, same_switch, far;
  };
  const std::vector<Case> cases = {
      {"host-mate jump largest", 10, 100, 150},  // steps 90 then 50
      {"far jump largest", 5, 40, 300},          // steps 35 then 260
      {"far jump largest, mate at 0 us", 0, 60, 400},
  };
  for (const Case& c : cases) {
    SECTION(c.name) {
      const RttModel model = [&](Rank u, Rank v) {
        if (layout.host_of[u] == layout.host_of[v]) return c.mate;
        return layout.switch_of[u] == layout.switch_of[v] ? c.same_switch : c.far;
      };
      const auto views = infer_all(layout, model, 0.02, 14, true);
      CHECK(combine_views(layout.size(), views) == true_groups(layout));
    }
  }
}

TEST_CASE("two processes per host on one switch", "[switch_inference]") {
  const Layout layout = regular_layout(1, 7, 2);
  const RttModel model = [&](Rank u, Rank v) {
    return layout.host_of[u] == layout.host_of[v] ? 10.0 : 100.0;
  };
  infer_all(layout, model, 0.02, 15, true);
}

TEST_CASE("rows of 0 and 1 peers, duplicates and bad ranks", "[switch_inference]") {
  CHECK(infer_own_switch({}, kRttHosts).near.empty());
  CHECK(infer_own_switch({{7, us(500)}}, kRttHosts).near == std::vector<Rank>{7});
  // Several samples of one peer: the minimum counts (peer 2 is really at 100 us). Negative
  // ranks are dropped.
  const std::vector<RttSample> row = {{1, us(100)}, {2, us(900)}, {2, us(100)},
                                      {3, us(300)}, {-1, us(1)},  {4, us(300)}};
  CHECK(infer_own_switch(row, kRttHosts).near == std::vector<Rank>{1, 2});
}

TEST_CASE("colocated_ratio 0 keeps a LAN/WAN step from being read as a host",
          "[switch_inference]") {
  // A LAN at 100 us, two remote sites at 10 and 15 ms. With the default ratio the LAN looks
  // like host-mates and the next site is taken for the switch (documented ambiguity).
  std::vector<RttSample> row;
  for (Rank v = 1; v <= 4; ++v) row.push_back({v, us(100)});
  for (Rank v = 5; v <= 8; ++v) row.push_back({v, us(10'000)});
  for (Rank v = 9; v <= 12; ++v) row.push_back({v, us(15'000)});
  const SwitchView fooled = infer_own_switch(row, kRttHosts);
  CHECK(fooled.colocated_step);
  CHECK(fooled.near.size() == 8);

  InferenceConfig wan;  // the default: host-mates come from host labels, not RTTs
  const SwitchView view = infer_own_switch(row, wan);
  CHECK_FALSE(view.colocated_step);
  CHECK(view.near == std::vector<Rank>{1, 2, 3, 4});
}

TEST_CASE("near-equal steps: the innermost within tie_tolerance is the switch",
          "[switch_inference]") {
  // Own switch at 100, the next level 200 us further out (+100), the next +105 (noise or one
  // more link): the paper's rule takes the larger, outer step; within 25 % it is a tie.
  const std::vector<TimeNs> row = {100, 100, 100, 200, 200, 200, 305, 305, 305};
  CHECK(find_rtt_cut(row, kPaperRule).index == 5);
  CHECK(find_rtt_cut(row, CutRule{0.3, 0.25}).index == 2);
  // A clearly larger outer step (LAN vs WAN) still wins: 100 vs 10,000.
  CHECK(find_rtt_cut({100, 100, 200, 200, 10'200, 10'200}, CutRule{0.3, 0.25}).index == 3);
  // An inner tie that is not significant (+20 %) gives way to the next candidate.
  CHECK(find_rtt_cut({100, 100, 120, 120, 140}, CutRule{0.3, 0.25}).significant == false);
  const RttCut later = find_rtt_cut({100, 100, 120, 120, 160, 160}, CutRule{0.3, 0.5});
  CHECK(later.index == 3);
  CHECK(later.significant);
}

TEST_CASE("property: trees with one latency on every level, noisy rows", "[switch_inference]") {
  // Issue 16, defect 4: every level adds the same RTT, so a node's row has equal steps; noise
  // of +-1 % (well under the 25 % tie tolerance) must not move any node's cut off its switch.
  Rng rng(1616);
  for (int trial = 0; trial < 40; ++trial) {
    const int fanout = 2 + static_cast<int>(rng.uniform(2));  // 2-3 children per switch
    const int depth = 2 + static_cast<int>(rng.uniform(2));   // 2-3 levels of switches
    const int hosts = 2 + static_cast<int>(rng.uniform(3));   // 2-4 hosts per leaf
    int leaves = 1;
    for (int d = 0; d < depth; ++d) leaves *= fanout;
    const Layout layout = regular_layout(leaves, hosts, 1);
    // Leaves a and b meet `levels` switches up: RTT = 4 x host link + 4 x level link per level.
    const RttModel model = [&](Rank u, Rank v) {
      int a = layout.switch_of[u], b = layout.switch_of[v], levels = 0;
      for (; a != b; a /= fanout, b /= fanout) ++levels;
      return 4 * 5.0 + 4 * 10.0 * levels;
    };
    INFO("trial " << trial << ": fanout " << fanout << ", depth " << depth);
    const auto views = infer_all(layout, model, 0.01, rng.next(), false);
    CHECK(combine_views(layout.size(), views) == true_groups(layout));
  }
}

TEST_CASE("combine_views: a node cut one level too far out does not merge switches",
          "[switch_inference]") {
  // Truth {0,1,2,3} and {4,5,6,7}. Nodes 0 and 4 took the outer step and name both switches;
  // they name each other, so mutual claims alone would join the switches. Their own mates
  // outvote them.
  std::vector<std::vector<Rank>> near = {{1, 2, 3, 4, 5, 6, 7}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2},
                                         {0, 1, 2, 3, 5, 6, 7}, {4, 6, 7}, {4, 5, 7}, {4, 5, 6}};
  CHECK(combine_views(8, near) == Groups{{0, 1, 2, 3}, {4, 5, 6, 7}});
  // One node cut too far in ({0,1} on a switch of four): the others still hold it together.
  near = {{1}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}};
  CHECK(combine_views(4, near) == Groups{{0, 1, 2, 3}});
  // Half of each switch cut too far out: the evidence is split evenly, and the switches merge
  // (docs/tree-inference.md states the condition that rules this out).
  const std::vector<Rank> both = {0, 1, 2, 3, 4, 5, 6, 7};
  near.assign(8, {});
  for (Rank u = 0; u < 8; ++u) {
    const bool coarse = u % 4 < 2;
    for (Rank v : both)
      if (v != u && (coarse || v / 4 == u / 4)) near[static_cast<std::size_t>(u)].push_back(v);
  }
  CHECK(combine_views(8, near) == Groups{both});
}

TEST_CASE("combine_views ignores one-sided claims and bad ranks", "[switch_inference]") {
  // Truth: {0,1,2,3} and {4,5,6,7}. Node 3 claims everyone, node 5 claims node 0, and bad
  // ranks appear; none of that is mutual, so the groups stand.
  std::vector<std::vector<Rank>> near = {
      {1, 2, 3}, {0, 2, 3},        {0, 1, 3, -1}, {0, 1, 2, 4, 5, 6, 7, 3},
      {5, 6, 7}, {4, 6, 7, 0, 99}, {4, 5, 7},     {4, 5, 6}};
  const Groups expected = {{0, 1, 2, 3}, {4, 5, 6, 7}};
  CHECK(combine_views(8, near) == expected);

  // Missing views: those ranks are singletons. Views for ranks >= n are dropped.
  CHECK(combine_views(3, {{1}, {0}}) == Groups{{0, 1}, {2}});
  CHECK(combine_views(2, {{1}, {0}, {0, 1}}) == Groups{{0, 1}});
  CHECK(combine_views(0, near).empty());
  // A chain of mutual links is one group even if its ends never name each other.
  CHECK(combine_views(3, {{1}, {0, 2}, {1}}) == Groups{{0, 1, 2}});
}

TEST_CASE("property: random layouts are inferred exactly", "[switch_inference]") {
  Rng rng(20240601);
  for (int trial = 0; trial < 50; ++trial) {
    // 2-8 switches of 2-7 hosts, 1 or 2 processes per host, ranks shuffled over the hosts.
    const int switches = 2 + static_cast<int>(rng.uniform(7));
    const int per_host = 1 + static_cast<int>(rng.uniform(2));
    std::vector<std::pair<int, int>> slots;  // (switch, host) of each process
    for (int s = 0; s < switches; ++s) {
      const int hosts = 2 + static_cast<int>(rng.uniform(6));
      for (int h = 0; h < hosts; ++h) {
        for (int p = 0; p < per_host; ++p) slots.emplace_back(s, s * 100 + h);
      }
    }
    for (std::size_t i = slots.size(); i > 1; --i) std::swap(slots[i - 1], slots[rng.uniform(i)]);
    Layout layout;
    for (const auto& [s, h] : slots) {
      layout.switch_of.push_back(s);
      layout.host_of.push_back(h);
    }
    // Other switches sit at 200, 220 or 240 us depending on the pair: a ragged far side.
    const RttModel model = [&](Rank u, Rank v) {
      if (layout.host_of[u] == layout.host_of[v]) return 10.0;
      const int su = layout.switch_of[u], sv = layout.switch_of[v];
      if (su == sv) return 100.0;
      return 200.0 + 20.0 * static_cast<double>((su + sv) % 3);
    };
    INFO("trial " << trial << ", " << switches << " switches, " << per_host << " per host");
    const auto views = infer_all(layout, model, 0.02, rng.next(), per_host == 2);
    CHECK(combine_views(layout.size(), views) == true_groups(layout));
  }
}
