// The scalable tree method: switch trees from RTTs between group representatives.
#include <catch2/catch.hpp>

#include "tsunagi/model/rng.hpp"
#include "tsunagi/model/topology/rtt_tree.hpp"

using namespace tsunagi;

namespace {

// RTTs of a tree with one latency per level: twice the sum of uplink latencies on the path,
// plus the host links, plus a little noise.
std::vector<std::vector<TimeNs>> rtts_of(const SwitchTree& t, const std::vector<TimeNs>& level_lat,
                                         Rng& rng, TimeNs noise) {
  auto depth = [&](int n) {
    int d = 0;
    while (t.parent[static_cast<std::size_t>(n)] >= 0) {
      n = t.parent[static_cast<std::size_t>(n)];
      ++d;
    }
    return d;
  };
  std::vector<std::vector<TimeNs>> rtt(static_cast<std::size_t>(t.leaves),
                                       std::vector<TimeNs>(static_cast<std::size_t>(t.leaves), 0));
  for (int a = 0; a < t.leaves; ++a)
    for (int b = 0; b < t.leaves; ++b) {
      if (a == b) continue;
      TimeNs sum = 20'000;  // host links
      int x = a, y = b;
      while (x != y) {
        if (depth(x) >= depth(y)) {
          sum += 2 * level_lat[static_cast<std::size_t>(depth(x))];
          x = t.parent[static_cast<std::size_t>(x)];
        } else {
          sum += 2 * level_lat[static_cast<std::size_t>(depth(y))];
          y = t.parent[static_cast<std::size_t>(y)];
        }
      }
      rtt[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] =
          sum + static_cast<TimeNs>(rng.uniform(static_cast<std::uint64_t>(noise) + 1));
    }
  return rtt;
}

SwitchTree tree_of(int leaves, std::vector<int> parent) {
  SwitchTree t;
  t.leaves = leaves;
  t.parent = std::move(parent);
  return t;
}

}  // namespace

TEST_CASE("rtt tree: regular two-level tree comes back, with noise", "[rtt_tree]") {
  // root 8 -> {9, 10}; leaves 0-3 under 9, 4-7 under 10.
  const SwitchTree truth = tree_of(8, {9, 9, 9, 9, 10, 10, 10, 10, -1, 8, 8});
  Rng rng(5);
  const auto rtt = rtts_of(truth, {0, 5'000, 10'000}, rng, 500);
  const SwitchTree inferred = tree_from_rtts(rtt, 0.1);
  CHECK(same_leaf_sets(inferred, truth));
}

TEST_CASE("rtt tree: regular three-level trees of many shapes", "[rtt_tree]") {
  Rng rng(9);
  for (int fan = 2; fan <= 5; ++fan) {
    // A full tree: root, fan aggregation, fan*fan leaves.
    const int leaves = fan * fan;
    std::vector<int> parent;
    for (int l = 0; l < leaves; ++l) parent.push_back(leaves + 1 + l / fan);
    parent.push_back(-1);
    for (int a = 0; a < fan; ++a) parent.push_back(leaves);
    const SwitchTree truth = tree_of(leaves, parent);
    const auto rtt = rtts_of(truth, {0, 5'000, 10'000}, rng, 0);
    CHECK(same_leaf_sets(tree_from_rtts(rtt, 0.05), truth));
  }
}

TEST_CASE("rtt tree: limit — RTT that does not grow with the meeting height misleads it",
          "[rtt_tree][limits]") {
  // root 6 -> {A 7: {0, 1}, B 8: {2, 3}, C 9: {4, 5}}. A's hosts sit behind slow 50 us leaf
  // links and C behind a 100 us uplink: leaves of A are nearer to B than to each other.
  const SwitchTree truth = tree_of(6, {7, 7, 8, 8, 9, 9, -1, 6, 6, 6});
  const std::vector<TimeNs> uplink = {50'000, 50'000, 5'000, 5'000, 5'000,
                                      5'000,  0,      5'000, 5'000, 100'000};
  std::vector<std::vector<TimeNs>> rtt(6, std::vector<TimeNs>(6, 0));
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b) {
      if (a == b) continue;
      TimeNs sum = 20'000 + 2 * uplink[static_cast<std::size_t>(a)] +
                   2 * uplink[static_cast<std::size_t>(b)];
      const int pa = truth.parent[static_cast<std::size_t>(a)];
      const int pb = truth.parent[static_cast<std::size_t>(b)];
      if (pa != pb)
        sum += 2 * uplink[static_cast<std::size_t>(pa)] + 2 * uplink[static_cast<std::size_t>(pb)];
      rtt[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = sum;
    }
  CHECK_FALSE(same_unrooted_tree(tree_from_rtts(rtt, 0.05), truth));
}

TEST_CASE("rtt tree: unmeasured pairs and tiny inputs", "[rtt_tree]") {
  CHECK(tree_from_rtts({}, 0.1).parent.empty());
  const SwitchTree one = tree_from_rtts({{0}}, 0.1);
  CHECK(one.parent == std::vector<int>{-1});
  const SwitchTree lost = tree_from_rtts({{0, -1, -1}, {-1, 0, -1}, {-1, -1, 0}}, 0.1);
  CHECK(lost.root() == 3);  // nothing measured: one switch over all
}
