// Multicast schedules (model/multicast/schedule.hpp) and group bitmaps: tree shapes on many
// group sizes and group layouts (every member exactly once, parent before child, the topology
// tree crossing between groups once per group), chunk ranges, the auto choice, and bitmaps that
// round-trip or are rejected with a reason.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/multicast/group_bitmap.hpp"
#include "tsunagi/model/multicast/schedule.hpp"
#include "tsunagi/model/rng.hpp"

using namespace tsunagi;
using namespace tsunagi::multicast;

namespace {

// Every member but the root has exactly one parent, appears once among all children lists, and
// is reached from the root; the parent lists and children lists agree.
void check_tree(const SendTree& tree, int p) {
  REQUIRE(static_cast<int>(tree.parent.size()) == p);
  CHECK(tree.parent[0] == -1);
  std::vector<int> seen(static_cast<std::size_t>(p), 0);
  for (int v = 0; v < p; ++v)
    for (int child : tree.children[v]) {
      REQUIRE(child > 0);
      REQUIRE(child < p);
      ++seen[child];
      CHECK(tree.parent[child] == v);
    }
  for (int v = 1; v < p; ++v) {
    CHECK(seen[v] == 1);
    int hops = 0;  // the root is reached: no cycle
    for (int u = v; u != 0 && hops <= p; u = tree.parent[u]) ++hops;
    CHECK(hops <= p);
  }
}

}  // namespace

TEST_CASE("binomial tree: paper 002 eq. 6, farthest subtree first, every member once") {
  const SendTree eight = binomial_tree(8);
  CHECK(eight.children[0] == std::vector<int>{4, 2, 1});
  CHECK(eight.children[4] == std::vector<int>{6, 5});
  CHECK(eight.children[6] == std::vector<int>{7});
  CHECK(eight.children[7].empty());
  const SendTree five = binomial_tree(5);
  CHECK(five.children[0] == std::vector<int>{4, 2, 1});
  CHECK(five.children[4].empty());
  for (int p = 1; p <= 300; ++p) check_tree(binomial_tree(p), p);
  CHECK_THROWS(binomial_tree(0));
}

TEST_CASE("binomial scatter: subtree chunk ranges tile the message and nest") {
  for (int p = 1; p <= 130; ++p) {
    const SendTree tree = binomial_tree(p);
    CHECK(binomial_subtree(0, p) == ChunkRange{0, p});
    for (int v = 0; v < p; ++v) {
      const ChunkRange mine = binomial_subtree(v, p);
      CHECK(mine.first == v);
      int covered = 1;  // v's own chunk, then its children's ranges, disjoint and inside
      for (int child : tree.children[v]) {
        const ChunkRange theirs = binomial_subtree(child, p);
        CHECK(theirs.first >= mine.first);
        CHECK(theirs.last <= mine.last);
        covered += theirs.size();
      }
      CHECK(covered == mine.size());
    }
  }
}

TEST_CASE("chunk bytes: ceil(n/p) per chunk, the tail shorter or empty, never past the end") {
  CHECK(bytes_of({0, 1}, 10, 4).length == 3);
  CHECK(bytes_of({3, 4}, 10, 4).length == 1);
  CHECK(bytes_of({0, 4}, 10, 4).length == 10);
  CHECK(bytes_of({2, 3}, 2, 4).length == 0);  // fewer bytes than chunks
  CHECK(bytes_of({0, 1}, 0, 1).length == 0);
  Rng rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    const std::uint64_t n = rng.uniform(1u << 20);
    const int p = 1 + static_cast<int>(rng.uniform(300));
    std::uint64_t sum = 0, next = 0;
    for (int c = 0; c < p; ++c) {
      const ByteRange range = bytes_of({c, c + 1}, n, p);
      CHECK(range.offset == next);
      next = range.offset + range.length;
      sum += range.length;
    }
    CHECK(sum == n);
  }
}

TEST_CASE("recursive doubling: partners pair up and blocks double to the whole message") {
  for (int p : {1, 2, 4, 8, 64, 256}) {
    const int steps = doubling_steps(p);
    CHECK((1 << steps) == p);
    for (int v = 0; v < p; ++v) {
      std::set<int> have{v};
      for (int k = 0; k < steps; ++k) {
        const int partner = doubling_partner(v, k);
        CHECK(doubling_partner(partner, k) == v);
        const ChunkRange mine = doubling_block(v, k);
        CHECK(mine.size() == (1 << k));
        for (int c = mine.first; c < mine.last; ++c) CHECK(have.count(c) == 1);
        const ChunkRange theirs = doubling_block(partner, k);
        for (int c = theirs.first; c < theirs.last; ++c) have.insert(c);
      }
      CHECK(static_cast<int>(have.size()) == p);
    }
  }
}

TEST_CASE("topology tree: each group entered once from outside, by its leader") {
  Rng rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int p = 1 + static_cast<int>(rng.uniform(200));
    const int groups = 1 + static_cast<int>(rng.uniform(20));
    std::vector<int> group_of(static_cast<std::size_t>(p));
    for (int& g : group_of) g = static_cast<int>(rng.uniform(static_cast<std::uint64_t>(groups)));
    const SendTree tree = topology_tree(group_of);
    check_tree(tree, p);
    std::map<int, int> entries;  // group -> edges into it from another group
    for (int v = 1; v < p; ++v)
      if (group_of[tree.parent[v]] != group_of[v]) ++entries[group_of[v]];
    for (const auto& [group, count] : entries) {
      CHECK(count == 1);
      CHECK(group != group_of[0]);
    }
  }
  // Two groups of four: 0's group first, then one edge to the other group's leader.
  const SendTree tree = topology_tree({0, 0, 1, 1, 0, 0, 1, 1});
  CHECK(tree.children[0] == std::vector<int>{2, 4, 1});
  CHECK(tree.parent[6] == 2);
}

TEST_CASE("segments: automatic size from the message and the group, or as set") {
  // bytes / (6 x members), whole KiB, 4 KiB .. 1 MiB.
  CHECK(segment_bytes(8388608, 256, 0) == 6144);  // 5,461.33 B rounded up to 6 KiB
  CHECK(segment_bytes(8388608, 8, 0) == 175104);  // 174,762.67 B: 171 KiB
  CHECK(segment_bytes(81920, 256, 0) == 4096);
  CHECK(segment_bytes(std::uint64_t{1} << 34, 2, 0) == 1048576);
  CHECK(segment_bytes(8388608, 100, 0) == 14336);  // 13,981.01 B: 14 KiB
  CHECK(segment_bytes(8388608, 256, 65536) == 65536);
  CHECK(segment_count(8388608, 8192) == 1024);
  CHECK(segment_count(81920, 8192) == 10);
  CHECK(segment_count(81921, 8192) == 11);
  CHECK(segment_count(0, 8192) == 1);
  CHECK(segment_count(100, 1) == 100);
}

TEST_CASE("auto choice: binomial small, doubling for power-of-two mid sizes, else ring") {
  const Thresholds t;
  CHECK(choose(Algorithm::Auto, 8192, 256, false, t).algorithm == Algorithm::Binomial);
  CHECK(choose(Algorithm::Auto, 8193, 256, false, t).algorithm == Algorithm::ScatterDoubling);
  CHECK(choose(Algorithm::Auto, 81920, 200, false, t).algorithm == Algorithm::ScatterRing);
  CHECK(choose(Algorithm::Auto, 2097151, 200, false, t).algorithm == Algorithm::ScatterRing);
  CHECK(choose(Algorithm::Auto, 2097152, 200, false, t).algorithm == Algorithm::Pipeline);
  CHECK(choose(Algorithm::Auto, 8388608, 256, false, t).algorithm == Algorithm::Pipeline);
  CHECK(choose(Algorithm::Auto, 8388608, 4, false, t).algorithm == Algorithm::Pipeline);
  CHECK(choose(Algorithm::Auto, 2097151, 4, false, t).algorithm == Algorithm::Binomial);
  Thresholds no_pipeline;
  no_pipeline.pipeline_min_bytes = 0;
  CHECK(choose(Algorithm::Auto, 8388608, 256, false, no_pipeline).algorithm ==
        Algorithm::ScatterRing);
  CHECK(choose(Algorithm::Pipeline, 100, 3, false, t).algorithm == Algorithm::Pipeline);
  CHECK(choose(Algorithm::ScatterDoubling, 100, 6, false, t).algorithm == Algorithm::ScatterRing);
  CHECK(choose(Algorithm::Topology, 100, 6, false, t).algorithm == Algorithm::Binomial);
  CHECK(choose(Algorithm::Topology, 100, 6, true, t).algorithm == Algorithm::Topology);
  Algorithm parsed;
  CHECK(parse_algorithm("scatter_doubling", parsed));
  CHECK(parsed == Algorithm::ScatterDoubling);
  CHECK_FALSE(parse_algorithm("scatter", parsed));
}

TEST_CASE("group bitmap: members in rank order, logical numbers, encode and decode") {
  const GroupBitmap group = GroupBitmap::of(20, {17, 2, 9, 4, 8, 2});
  CHECK(group.count() == 5);
  CHECK(group.members() == std::vector<Rank>{2, 4, 8, 9, 17});
  CHECK(group.logical_of(9) == 3);
  CHECK(group.logical_of(3) == -1);
  CHECK_FALSE(group.contains(20));
  wire::Writer w;
  group.encode(w);
  const Bytes bytes = w.take();
  CHECK(bytes.size() == 4 + 3);
  wire::Reader r(bytes);
  std::string error;
  auto back = GroupBitmap::decode(r, 20, error);
  REQUIRE(back);
  CHECK(*back == group);
  CHECK_THROWS(GroupBitmap::of(4, {4}));
  CHECK_THROWS(GroupBitmap(0));
  Rng rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const int p = 1 + static_cast<int>(rng.uniform(1000));
    GroupBitmap random(p);
    random.add(static_cast<Rank>(rng.uniform(static_cast<std::uint64_t>(p))));
    for (int i = 0; i < p / 3; ++i)
      random.add(static_cast<Rank>(rng.uniform(static_cast<std::uint64_t>(p))));
    const auto members = random.members();
    for (std::size_t i = 0; i < members.size(); ++i)
      CHECK(random.logical_of(members[i]) == static_cast<int>(i));
    wire::Writer out;
    random.encode(out);
    const Bytes encoded = out.take();
    wire::Reader in(encoded);
    auto decoded = GroupBitmap::decode(in, p, error);
    REQUIRE(decoded);
    CHECK(*decoded == random);
  }
}

TEST_CASE("group bitmap: malformed bitmaps are rejected with a reason") {
  auto decode = [](const Bytes& bytes, int processes) {
    wire::Reader r(bytes);
    std::string error;
    auto group = GroupBitmap::decode(r, processes, error);
    return group ? std::string() : error;
  };
  CHECK(decode({10, 0, 0, 0, 0xff, 0x03}, 10).empty());
  CHECK(decode({10, 0, 0, 0, 0xff}, 10).find("truncated") != std::string::npos);
  CHECK(decode({10, 0, 0, 0, 0xff, 0x07}, 10).find("beyond") != std::string::npos);
  CHECK(decode({10, 0, 0, 0, 0, 0}, 10).find("no member") != std::string::npos);
  CHECK(decode({11, 0, 0, 0, 1, 0}, 10).find("run of 10") != std::string::npos);
  CHECK(decode({0xff, 0xff, 0xff, 0x7f}, 10).find("run of 10") != std::string::npos);
  CHECK(decode({10, 0}, 10).find("group bitmap") != std::string::npos);
}
