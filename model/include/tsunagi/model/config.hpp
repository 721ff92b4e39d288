// Every knob of the protocol core and its workloads, with documented defaults (docs/config.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi {

// Relay (paper 001): a node connects to the ranks of its own site and sends everything else
// through a relay daemon of its site; relays connect to each other across the WAN.
// Hierarchical (issue 30): members connect within their group and to its leader; leaders along
// the inferred tree (overlay/hierarchy.hpp): N x group size connection ends, not N x groups.
enum class PlanKind { AllToAll, RandomK, TopologyAware, Relay, Hierarchical };
// The plans whose groups the rendezvous infers from measurements.
inline bool inferred_plan(PlanKind plan) {
  return plan == PlanKind::TopologyAware || plan == PlanKind::Hierarchical;
}
// How next hops are found: Rounds = distance vector by message exchange (any plan); FromGroups =
// read off the switch groups (topology-aware plan only; no messages, O(1) per destination);
// Direct = no forwarding at all: both ends of every planned pair try to connect, and a message
// for a rank without a connection is undeliverable (paper 001's plain-sockets baseline).
enum class RoutingKind { Rounds, FromGroups, Direct };

// How the rendezvous infers the switch tree once the groups are known. Partition = from the
// RTTs groups = "partition" measured anyway, no extra probes (needs groups = "partition").
enum class TreeMethod { None, Exact, Rtt, Partition };
// How switch groups are found: AllPairs = every node probes every other (paper 000 §2.1);
// Leaders = scalable: one leader at a time probes the ranks not yet placed and its near side
// becomes a group (about N x groups / 2 probes instead of N^2). Partition = scalable and
// concurrent: every part of the network picks a few leaders at once, its ranks probe them, each
// leader's row over the part gives its group, the rest split by nearest leader and the parts
// recurse side by side (docs/tree-inference.md, "The partition method").
enum class GroupMethod { AllPairs, Leaders, Partition };

// How nodes learn where their peers listen: Full = the rendezvous sends every node the whole
// directory (N endpoints each); OnDemand = nodes ask for the endpoints they are about to use
// (probe targets, planned neighbours, shortcut peers). At 10,000 processes the full directory
// is 3 GB through the rendezvous's link and N^2 strings in memory (docs/architecture.md).
enum class DirectoryMode { Full, OnDemand };

struct InferenceConfig {
  int rtt_samples = 3;  // K probes per peer, the minimum is kept (paper 000 §2.1)
  // One RTT probe is echoes sent one after another until K answered (docs/scenario-format.md):
  // an echo unanswered after rtt_timeout is lost and sent again; once more than rtt_lost_limit
  // are lost the probe ends, ok if any answered. Also for window and workload probes.
  TimeNs rtt_timeout = kNsPerSec;
  int rtt_lost_limit = 2;
  int rtt_parallel = 1;         // probes a node keeps in flight at once
  double min_jump_ratio = 0.3;  // a cut counts only if RTT grows by at least this fraction
  // Steps of a node's RTT row within this share of the largest one are ties, and the innermost
  // of them is the own switch (0 = paper 000's rule: the largest, the first of exact ties).
  double tie_tolerance = 0.25;
  // Host-mates are known from the host labels processes register with (a process knows its
  // machine). For runs where labels say nothing, > 0 also detects them from RTTs: a near side
  // below this share of the far side is read as one host (0.25 suits LANs; 0 = off).
  double colocated_ratio = 0;
  // Switch tree (paper 000 §2.2): None, or Exact = throughput interference between
  // representatives of every pair of groups (needs ~L^4/2 pair probes for L groups).
  GroupMethod groups = GroupMethod::AllPairs;
  TreeMethod tree = TreeMethod::None;
  double rtt_tree_tolerance = 0.05;  // tree = rtt: RTTs within 5 % count as the same height
  std::uint64_t throughput_bytes = 1'000'000;  // bytes of one throughput probe
  double interference_drop = 0.25;  // two transfers interfere when one falls below 75 % alone
  int exact_max_groups = 24;        // the exact method refuses more groups (probe count)
  // groups = partition: leaders a part picks at once (every rank of the part probes each).
  int partition_leaders = 8;
  // groups = partition: the fewest hosts in a window (2 sqrt(hosts) when that is more). Below
  // it no chain runs and the rendezvous runs the rounds over all hosts as one part.
  int partition_window_min = 64;
};

struct OverlayConfig {
  PlanKind plan = PlanKind::TopologyAware;
  RoutingKind routing = RoutingKind::Rounds;
  int random_k = 8;           // expected degree of the random plan
  int shortcut_capacity = 0;  // paper 000 §3.2; 0 = no shortcuts
  TimeNs connect_timeout = 3 * kNsPerSec;
  // Static connections a node has in the making at once (0 = all at once). Real stacks limit
  // connect bursts (SYN floods overflow accept queues and trip router rate limits); in a flow
  // simulator it also bounds the flows that share the network at the same moment.
  int connect_parallel = 4;
  bool trace_full_routes = true;  // false: one digest per node instead of its whole table
};

enum class WorkloadKind { None, PingPong, IntSort, Connectivity, Multicast, Lmmc, Indices };

// Paper 004's link indices: for every ordered pair of ranks, blocking ping-pong times for each
// size (as mpptest), the raw RTT for each size (as ping) and one bulk transfer (as iperf); rank 0
// runs the pairs one after another and reports TCP, OH_s, BW_s (docs/wan-windows.md).
struct IndicesConfig {
  std::vector<std::uint64_t> sizes{64,    256,    1024,    4096,    16384,
                                   65536, 262144, 1048576, 4194304, 8388608};
  int repeats = 3;                         // ping-pongs per size; the fastest counts (mpptest)
  std::uint64_t stream_bytes = 64u << 20;  // the bulk transfer of the TCP bandwidth
  // Messages of the largest size sent back to back and answered once (osu_bw's window; 0 =
  // none): the message bandwidth of a stream, beside the ping-pong's, which includes a one-way
  // latency per message. One unmeasured train opens the congestion window first.
  int train_messages = 0;
  double nominal_bandwidth = 125e6;  // bytes/s the TCP index divides by (paper: 1 Gbit/s)
};

// Every rank sends one small message to every other and answers each (paper 001's
// connectivity matrix). A message with neither answer nor undeliverable notice by the deadline
// (from the workload's start) counts as unreached.
struct ConnectivityConfig {
  std::uint64_t message_bytes = 64;
  TimeNs deadline = 60 * kNsPerSec;
};

struct PingPongConfig {
  std::uint64_t message_bytes = 64;
  int rounds = 10;
  Rank ping = 0;   // first rank of the pair
  Rank pong = -1;  // second rank; -1 = the last rank
};

struct IntSortConfig {
  std::uint64_t total_keys = 1u << 20;  // summed over all ranks (NPB IS class A: 2^23)
  std::uint32_t max_key = 1u << 16;     // keys are in [0, max_key) (class A: 2^19)
  int iterations = 10;                  // NPB IS ranks the keys 10 times
  TimeNs compute_ns_per_key = 10;       // modelled CPU time of bucketing and local sort
};

// Paper 002: a master sends one message to a group of workers, chosen at run time, through a
// multicast the group runs by itself (docs/multicast.md). Every worker (all ranks but the master)
// may be chosen. The series is algorithms x sizes x group sizes x repeats, in that order.
struct MulticastConfig {
  std::vector<std::string> algorithms{"auto"};  // auto, binomial, scatter_ring, ... (schedule.hpp)
  std::vector<std::uint64_t> sizes{81920, 8388608};       // message bytes (paper: 80 KB, 8 MB)
  std::vector<int> group_sizes{8, 16, 32, 64, 128, 256};  // r (paper 002 Fig. 8, 9)
  // "strided": workers W/r*i for i = 0..r-1 (the paper's 256/r*i); "random": r workers drawn
  // anew for every multicast from the run's seed (a changing group).
  std::string groups = "strided";
  int repeats = 10;
  double trim = 0.1;    // drop this share of the slowest and of the fastest runs (paper: 10 %)
  TimeNs interval = 0;  // 0: the next multicast starts when the last one is done
  Rank master = -1;     // -1: the last rank
  TimeNs deadline = 60 * kNsPerSec;  // a multicast not done by then counts as failed
  // Up to this size the message's bytes travel and every member checks their digest; above,
  // the bytes are modelled filler and members check that every chunk arrived in full.
  std::uint64_t verify_bytes_max = 1u << 20;
  // What `auto` goes by (paper 002: binomial up to 8 KB; MPICH: fewer than 8 members binomial,
  // power-of-two groups up to 512 KB scatter + recursive doubling).
  std::uint64_t binomial_max_bytes = 8192;
  int binomial_below_members = 8;
  std::uint64_t doubling_max_bytes = 524288;
  // `auto`: the pipeline from this size (0: never). Segment size of the seed and the pipeline;
  // 0 = automatic (multicast/schedule.hpp, segment_bytes; docs/multicast.md, "Segments").
  std::uint64_t pipeline_min_bytes = 2097152;
  std::uint64_t segment_bytes = 0;
};

// Paper 003 (docs/lmmc.md): processes on every node write to ports of other nodes through link
// memory (remote writes into the reader's link page frames, local reads, credits, remote paging
// on non-resident ports). Costs are the paper's calibration, paid on the node's CPU queue.
struct LmmcConfig {
  // pingpong (paper 003 Fig. 9/10: ping and pong, one port per size), ring, all_to_all, stencil
  // (partners rank xor 2^k: a hypercube's neighbours), master_worker, random.
  std::string pattern = "pingpong";
  std::vector<std::uint64_t> sizes{1, 256, 1024, 4096};  // pingpong: message bytes
  int rounds = 4;                                        // pingpong: round trips per size
  // pingpong: untimed 1-byte round trips before the series, on a port of their own (process
  // `procs`, so frames > procs pages nothing): they take the connection's and the processes'
  // first-use costs out of the first size's first message (docs/lmmc.md, "Fig. 9/10").
  int warmup = 0;
  std::uint64_t message_bytes = 256;     // other patterns (at most a page)
  int iterations = 16;                   // other patterns: rounds of the loop
  int procs = 4;                         // processes per node, each on its own port to each peer
  int frames = 4;                        // link page frames per link end (each direction)
  std::uint32_t page_size = 4096;        // bytes; a port holds at most a page unread
  std::string policy = "lru";            // fifo, lru, clock, comm
  int lookahead = 0;                     // sends posted ahead of the write that COMM sees
  TimeNs send_routine = 17 * kNsPerUs;   // paper 003 §4.4, 1 byte
  TimeNs receive_write = 20 * kNsPerUs;  // §4.4, FIFO -> link memory, 1 byte
  TimeNs first_touch = 180 * kNsPerUs;   // §4.4, first message (MMU/TLB set-up)
  TimeNs paging_trap = 180 * kNsPerUs;   // our assumption: the paper measures none
  Rank ping = 0;                         // pingpong; master_worker: the master
  Rank pong = -1;                        // pingpong: -1 = the last rank
  std::uint64_t seed_salt = 0;           // random: varies the draw without the run's seed
};

struct WorkloadConfig {
  WorkloadKind kind = WorkloadKind::PingPong;
  PingPongConfig pingpong;
  IntSortConfig intsort;
  ConnectivityConfig connectivity;
  MulticastConfig multicast;
  LmmcConfig lmmc;
  IndicesConfig indices;
};

// CPU time the paper's system spent and a flow model leaves out (paper 000 Fig. 5 discusses
// them): a node pays these on its own CPU, one job after another, before it acts. All 0 (the
// default) = free, and messages are handled at once.
struct CostConfig {
  TimeNs relay = 0;                  // forwarding one message for someone else
  TimeNs select_per_connection = 0;  // per message sent or received, x open data connections
  TimeNs connect = 0;                // setting up one data connection (either end)
  // LogGP's host costs (issue 32): o_s per application message sent (originated or forwarded),
  // o_r per one received (delivered or received to forward), and each such event also copies
  // the message's bytes at copy_bandwidth (G; bytes/s, 0 = copying is free). Protocol control
  // frames pay none of them (docs/scenario-format.md, "[protocol.costs]").
  TimeNs send_overhead = 0;
  TimeNs receive_overhead = 0;
  double copy_bandwidth = 0;
  bool host_costs() const {
    return send_overhead > 0 || receive_overhead > 0 || copy_bandwidth > 0;
  }
  bool any() const { return relay > 0 || select_per_connection > 0 || connect > 0 || host_costs(); }
  // bytes / copy_bandwidth in ns, rounded to the nearest; 0 when copying is free. Saturates
  // at kMaxCostNs, so no size overflows (config.cpp).
  TimeNs copy_time(std::uint64_t bytes) const;
  TimeNs send_cost(std::uint64_t bytes) const;     // send_overhead + copy_time
  TimeNs receive_cost(std::uint64_t bytes) const;  // receive_overhead + copy_time
  // Far beyond any run (146 years), and far below int64's end, so now + cost cannot overflow.
  static constexpr TimeNs kMaxCostNs = TimeNs{1} << 62;
};

// Socket buffers of the data connections (issue 15, docs/wan-windows.md): Default = the host
// stack's own; Fixed = `bytes` for send and receive on every data connection; Auto = from the
// bandwidth-delay product the node measured to that peer (RTT probes and a throughput probe made
// with `max_bytes` buffers), times `headroom`, within [min_bytes, max_bytes].
enum class WindowMode { Default, Fixed, Auto };
struct WindowConfig {
  WindowMode mode = WindowMode::Default;
  std::uint64_t bytes = 0;
  double headroom = 1.25;
  std::uint64_t min_bytes = 65536;
  std::uint64_t max_bytes = 32u << 20;
  int rtt_samples = 3;
  std::uint64_t probe_bytes = 8u << 20;
};

struct ProtocolConfig {
  InferenceConfig inference;
  WindowConfig window;
  CostConfig costs;
  OverlayConfig overlay;
  WorkloadConfig workload;
  std::uint64_t seed = 1;
  int processes = 0;  // number of ranks the rendezvous waits for
  int relays = 0;     // plan = relay: relay daemons the rendezvous waits for
  DirectoryMode directory = DirectoryMode::Full;
  // The rendezvous gives up, naming the missing ranks, when not all registered by then.
  TimeNs registration_timeout = 60 * kNsPerSec;
};

const char* to_string(PlanKind plan);
const char* to_string(WorkloadKind kind);
const char* to_string(RoutingKind kind);
bool parse_routing_kind(const std::string& text, RoutingKind& out);
const char* to_string(TreeMethod method);
bool parse_tree_method(const std::string& text, TreeMethod& out);
const char* to_string(GroupMethod method);
bool parse_group_method(const std::string& text, GroupMethod& out);
const char* to_string(DirectoryMode mode);
bool parse_directory_mode(const std::string& text, DirectoryMode& out);
bool parse_plan_kind(const std::string& text, PlanKind& out);
bool parse_workload_kind(const std::string& text, WorkloadKind& out);
const char* to_string(WindowMode mode);

}  // namespace tsunagi
