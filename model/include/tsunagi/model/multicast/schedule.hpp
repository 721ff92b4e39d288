// Who sends what to whom in one multicast, as pure functions of the group's size (and, for the
// topology-aware tree, of which members share a switch or router). Members are logical numbers
// 0..p-1 in bitmap order; 0 is the root. docs/multicast.md explains each algorithm.
//
//   binomial            the whole message down a binomial tree: dest = src + 2^(s-i) (paper 002
//                       eq. 6), farthest subtree first.
//   scatter_ring        the message cut into p chunks, scattered down the same binomial tree
//                       (each child gets its subtree's chunks), then a ring allgather: every
//                       chunk travels p-1 hops to the right (paper 002 above 8 KB).
//   scatter_doubling    the same scatter, then a recursive-doubling allgather: at step k member
//                       v swaps its aligned block of 2^k chunks with v XOR 2^k (power-of-two
//                       groups; paper 002's future work, MPICH's mid-size choice).
//   topology            the whole message down a two-level tree: a binomial tree over one leader
//                       per switch group (so each group is reached over the links between groups
//                       once), then a binomial tree inside each group (paper 002's other future
//                       work).
//   pipeline            the message cut into segments passed along a chain 0 -> 1 -> ... -> p-1;
//                       a member forwards each segment as it arrives, so the message crosses
//                       every member's link once and a hop costs one segment, not one message
//                       (issue 32; MPICH's and Open MPI's chain/pipeline Bcast). Acks climb the
//                       binomial tree (log2 p hops, not p).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tsunagi::multicast {

enum class Algorithm { Auto, Binomial, ScatterRing, ScatterDoubling, Topology, Pipeline };

const char* to_string(Algorithm algorithm);
bool parse_algorithm(const std::string& text, Algorithm& out);

// What `auto` goes by (settings; the defaults are paper 002's 8 KB and MPICH's thresholds).
struct Thresholds {
  std::uint64_t binomial_max_bytes = 8192;     // up to here: binomial tree
  int binomial_below_members = 8;              // fewer members: binomial at any size (MPICH)
  std::uint64_t doubling_max_bytes = 524288;   // up to here, power-of-two groups: doubling
  std::uint64_t pipeline_min_bytes = 2097152;  // from here: pipeline (0: never by auto)
};

// Segments: how the master cuts the seed, and the pipeline's unit. `setting` 0 is the automatic
// choice (docs/multicast.md, "Segments"): bytes / (6 x members), rounded up to a whole KiB, at
// least kMinAutoSegment and at most kMaxAutoSegment. Any other value is taken as it is.
constexpr std::uint64_t kMinAutoSegment = 4096;
constexpr std::uint64_t kMaxAutoSegment = 1 << 20;
std::uint64_t segment_bytes(std::uint64_t bytes, int members, std::uint64_t setting);
// ceil(bytes / segment), at least 1 (a message of 0 bytes is one empty segment).
int segment_count(std::uint64_t bytes, std::uint64_t segment);

bool is_power_of_two(int value);

// The algorithm `requested` becomes for a message of `bytes` to `members` members. `have_groups`
// says whether switch groups are known (the topology tree needs them). The root decides once;
// the pieces carry its choice to everyone else.
struct Choice {
  Algorithm algorithm = Algorithm::Binomial;
  std::string why;  // for the trace: "auto: 81920 B <= 524288 B, 256 members, a power of two"
};
Choice choose(Algorithm requested, std::uint64_t bytes, int members, bool have_groups,
              const Thresholds& thresholds);

// A send tree over logical members, root 0. children[v] in the order v sends to them.
struct SendTree {
  std::vector<int> parent;  // -1 for the root
  std::vector<std::vector<int>> children;
};

SendTree binomial_tree(int members);
// group_of[v]: any id of the switch group of logical member v (members of one group share it).
SendTree topology_tree(const std::vector<int>& group_of);

// Chunks [first, last) of a message cut into `chunks` pieces.
struct ChunkRange {
  int first = 0;
  int last = 0;
  int size() const { return last - first; }
  bool operator==(const ChunkRange&) const = default;
};

// The chunks member v holds after the binomial scatter: its subtree [v, v + lowbit(v)).
ChunkRange binomial_subtree(int v, int members);

// Bytes of `range` when `total` bytes are cut into `chunks` chunks of ceil(total / chunks)
// bytes (the last ones shorter or empty, as MPICH cuts them).
struct ByteRange {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};
ByteRange bytes_of(ChunkRange range, std::uint64_t total, int chunks);

// Recursive doubling: member v's partner at step k, and the block of 2^k chunks it sends there.
int doubling_partner(int v, int step);
ChunkRange doubling_block(int v, int step);
int doubling_steps(int members);  // log2(members) for a power of two

}  // namespace tsunagi::multicast
