// Readers for each part of a scenario file, run after overrides and the shape check.
#pragma once

#include <initializer_list>

#include "reader.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::scenario {

// Sizes past which a scenario is almost certainly a typo (and would exhaust memory). The loader
// refuses them with the fix instead of letting a run die of bad_alloc; docs/scenario-format.md
// lists them ("Limits"). 100,000 hosts and processes by default: 6.3 GB on SimGrid
// (docs/benchmarks.md). Whoever runs tsunagi may raise that with TSUNAGI_MAX_PROCESSES (up to
// 2^20, the wire's rank limit); a scenario file cannot raise its own ceiling.
inline constexpr std::int64_t kMaxSwitches = 1'000'000;
inline constexpr std::int64_t kDefaultMaxProcesses = 100'000;
inline constexpr std::int64_t kMaxProcessesCeiling = std::int64_t{1} << 20;
// The limit on hosts and on processes: kDefaultMaxProcesses, or TSUNAGI_MAX_PROCESSES when set
// (a whole number from 1 to kMaxProcessesCeiling; anything else throws std::invalid_argument).
std::int64_t max_processes();
// Issue 29: counts that multiply into the work or the memory of a run. Each is far above any
// published experiment, and low enough that no product of them overflows or exhausts a rank.
inline constexpr int kMaxRepeats = 10'000;        // multicast repeats, LMMC rounds, sort iterations
inline constexpr int kMaxIterations = 1'000'000;  // LMMC iterations and look-ahead
// Ping-pong rounds: the tests' "runs until stopped" is 10^8 rounds.
inline constexpr int kMaxPingPongRounds = 1'000'000'000;
inline constexpr std::int64_t kMaxMulticasts = 100'000;  // algorithms x sizes x groups x repeats
// The bytes a multicast's members hold for verification (each member a copy): one run's
// members together at most 1 GiB, one message at most 64 MiB (SimGrid and ns-3 hold every
// rank in one process). Larger messages travel as modelled filler (verify_bytes_max).
inline constexpr std::int64_t kMaxVerifiedBytes = std::int64_t{1} << 26;
inline constexpr std::int64_t kMaxVerifiedTotal = std::int64_t{1} << 30;
inline constexpr int kMaxRelaysPerCluster = 64;
inline constexpr int kMaxClusters = 1024;       // [[network.cluster]] sites
inline constexpr int kMaxSynRetries = 30;       // the backoff doubles: syn_rto x 2^31 at most
inline constexpr int kMaxParallelLinks = 1024;  // a Dragonfly class's count

// a x b x ..., saturating at cap + 1 instead of overflowing, so an absurd size is reported as
// too large, never wrapped to a small one (2^22 x 2^22 x 2^22 routers loaded as 0).
std::int64_t capped_product(std::initializer_list<std::int64_t> factors, std::int64_t cap);

// A scenario file is a few kilobytes of TOML; past this it is not one (/dev/zero, a log).
inline constexpr std::uintmax_t kMaxScenarioFileBytes = 4u << 20;

// [network]: loopback link and either [[network.switch]] or [network.tree].
Network read_network(const Section& root);
NetworkFactors read_network_factors(const Section& factors);

// A [network.tree]-shaped table (also a cluster's tree): the generated switches.
std::vector<SwitchSpec> read_tree(const Section& tree);
// [network.random_tree] (load_random_tree.cpp): the drawn switches, refused when too large.
std::vector<SwitchSpec> read_random_tree(const Section& random_tree);

// [[network.cluster]] and [network.wan] (load_wan.cpp): fills switches, clusters, rendezvous
// cluster and SYN timing of `out`.
void read_wan(const Section& network, const toml::array& clusters, Network& out);
// [network.cluster.tcp] (load_site_tcp.cpp): the site's TCP stack.
void read_site_tcp(const Section& cluster, ClusterSpec& spec);
// tcp_profile, backbone_bandwidth and site_rtt of [network.wan], and the tuned peers' names
// (load_site_tcp.cpp); needs every cluster read.
void read_backbone(const std::vector<Section>& clusters, const Section& wan, Network& out);
// [network.wan] without clusters is an error.
void check_wan_only_keys(const Section& network);

// Refuses every other way of describing the network beside [network.<own>], saying `why`.
void refuse_other_shapes(const Section& network, std::string_view own, const std::string& why);

// [network.dragonfly] (load_dragonfly.cpp): the shape and link classes; refuses the tables it
// replaces (switches, trees, clusters) in `network`.
DragonflySpec read_dragonfly(const Section& network, const Section& dragonfly);

// [network.serial] (load_serial.cpp, issue 14): layout, links and their figures, or a shared
// segment; refuses the tables it replaces in `network`.
SerialSpec read_serial(const Section& network, const Section& serial);

// [[faults]]: checked against the process labels of the scenario (needs the process count).
std::vector<FaultSpec> read_faults(const Section& root, const Scenario& scenario);

// [protocol], [protocol.inference] and [workload]; processes and seed are filled in later.
ProtocolConfig read_protocol(const Section& root);

// protocol.window and its auto knobs; [workload.indices] (load_window.cpp, issue 15).
void read_window(const Section& protocol, WindowConfig& out);
IndicesConfig read_indices(const Section& s, IndicesConfig c);

// Checks that need the process count (ping-pong ranks must exist).
void check_workload(const Section& root, const ProtocolConfig& protocol, int processes);
// [workload.multicast] (load_multicast.cpp), and whether its series fits the run's ranks.
MulticastConfig read_multicast(const Section& s, MulticastConfig c);
void check_multicast(const Section& root, const ProtocolConfig& protocol, int processes);
// [workload.lmmc] (load_lmmc.cpp, issue 14), and whether its ranks exist.
LmmcConfig read_lmmc(const Section& s, LmmcConfig c);
void check_lmmc(const Section& root, const ProtocolConfig& protocol, int processes);
// plan = relay needs clusters with relays (protocol.relays counted from them).
void check_relay_plan(const Section& root, const ProtocolConfig& protocol, bool sites);

}  // namespace tsunagi::scenario
