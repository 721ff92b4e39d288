// [protocol], [protocol.inference] and [workload]: the ProtocolConfig the core runs with.
// Defaults are ProtocolConfig's own (model/include/tsunagi/model/config.hpp).
#include <charconv>
#include <limits>
#include <string>

#include "readers.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::scenario {
namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr double kHuge = std::numeric_limits<double>::max();
// Bounds that turn run-time failures into load-time errors (docs/scenario-format.md,
// "Limits"). Samples per probe: each is a real round trip. Keys: each is 4 real bytes in the
// process that holds it; 2^31 is NPB IS class D. Message bytes travel as a frame's filler,
// which the wire caps at kMaxFiller (16 GiB).
constexpr std::int64_t kMaxRttSamples = 1000;
constexpr std::int64_t kMaxTotalKeys = std::int64_t{1} << 31;
constexpr auto kMaxMessageBytes = static_cast<std::int64_t>(wire::kMaxFiller);

PlanKind read_plan(const Section& s, PlanKind fallback) {
  std::string text = s.string("plan", to_string(fallback));
  PlanKind plan = fallback;
  if (!parse_plan_kind(text, plan)) {
    s.fail("plan", "unknown plan \"" + text +
                       "\" — use \"all\" (every pair), \"random\" "
                       "(random_k peers), \"topology\" (paper 000 §3.1), \"hierarchical\" "
                       "(groups and their leaders along the inferred tree) or \"relay\" (own "
                       "site direct, other sites through relays, paper 001)");
  }
  return plan;
}

RoutingKind read_routing(const Section& s, RoutingKind fallback, PlanKind plan) {
  std::string text = s.string("routing", to_string(fallback));
  RoutingKind routing = fallback;
  if (!parse_routing_kind(text, routing)) {
    s.fail("routing", "unknown routing \"" + text +
                          "\" — use \"rounds\" (distance vector by message exchange), "
                          "\"groups\" (read off the switch groups; topology plan only) or "
                          "\"direct\" (no forwarding: both ends connect)");
  }
  if (routing == RoutingKind::Direct && plan == PlanKind::Relay) {
    s.fail("routing",
           "routing = \"direct\" forwards nothing, so relays would never be used — "
           "use routing = \"rounds\" with plan = \"relay\", or plan = \"all\"");
  }
  if (routing == RoutingKind::FromGroups && !inferred_plan(plan)) {
    s.fail("routing",
           "routing = \"groups\" needs plan = \"topology\" or \"hierarchical\" (it reads "
           "next hops off the inferred groups) — use routing = \"rounds\"");
  }
  if (routing == RoutingKind::Direct && plan == PlanKind::Hierarchical) {
    s.fail("routing",
           "routing = \"direct\" forwards nothing, so no message would leave its group — use "
           "routing = \"groups\" (through the leaders) with plan = \"hierarchical\"");
  }
  return routing;
}

WorkloadKind read_kind(const Section& s, WorkloadKind fallback) {
  std::string text = s.string("kind", to_string(fallback));
  WorkloadKind kind = fallback;
  if (!parse_workload_kind(text, kind)) {
    s.fail("kind", "unknown workload kind \"" + text +
                       "\" — use \"none\", \"pingpong\", \"intsort\", "
                       "\"connectivity\", \"multicast\", \"lmmc\" or \"indices\"");
  }
  return kind;
}

void read_overlay(const Section& s, ProtocolConfig& out) {
  OverlayConfig& o = out.overlay;
  o.plan = read_plan(s, o.plan);
  o.routing = read_routing(s, o.routing, o.plan);
  o.random_k = s.count("random_k", o.random_k, 1, static_cast<int>(max_processes()));
  o.shortcut_capacity =
      s.count("shortcut_capacity", o.shortcut_capacity, 0, static_cast<int>(max_processes()));
  o.connect_parallel =
      s.count("connect_parallel", o.connect_parallel, 0, static_cast<int>(max_processes()));
  o.connect_timeout = s.duration("connect_timeout", o.connect_timeout);
  if (o.connect_timeout <= 0)
    s.fail("connect_timeout", "connect_timeout must be above 0 — e.g. \"3s\"");
  o.trace_full_routes = s.boolean("trace_full_routes", o.trace_full_routes);
  out.registration_timeout = s.duration("registration_timeout", out.registration_timeout);
  if (out.registration_timeout <= 0) {
    s.fail("registration_timeout", "registration_timeout must be above 0 — e.g. \"60s\"");
  }
}

// After the inference section: whether all-pairs probing is on decides what is allowed.
void read_directory(const Section& s, ProtocolConfig& out) {
  const std::string text = s.string("directory", to_string(out.directory));
  if (!parse_directory_mode(text, out.directory)) {
    s.fail("directory", "unknown directory \"" + text +
                            "\" — use \"full\" (every node gets every endpoint) or "
                            "\"on_demand\" (nodes ask for the endpoints they use)");
  }
  const bool all_pairs =
      inferred_plan(out.overlay.plan) && out.inference.groups == GroupMethod::AllPairs;
  if (out.directory == DirectoryMode::OnDemand && all_pairs) {
    s.fail("directory",
           "directory = \"on_demand\" saves nothing when every node probes every "
           "other (groups = \"all_pairs\") — set [protocol.inference] groups = "
           "\"leaders\" or directory = \"full\"");
  }
}

InferenceConfig read_inference(const Section& s, InferenceConfig in) {
  in.rtt_samples = static_cast<int>(s.integer("rtt_samples", in.rtt_samples, 1, kMaxRttSamples));
  in.rtt_timeout = s.duration("rtt_timeout", in.rtt_timeout);
  if (in.rtt_timeout <= 0)
    s.fail("rtt_timeout",
           "rtt_timeout must be above 0 — an echo needs time to come back (e.g. \"1s\")");
  in.rtt_lost_limit = s.count("rtt_lost_limit", in.rtt_lost_limit, 0);
  in.rtt_parallel = s.count("rtt_parallel", in.rtt_parallel, 1, static_cast<int>(max_processes()));
  in.min_jump_ratio = s.number("min_jump_ratio", in.min_jump_ratio, 0, kHuge);
  in.colocated_ratio = s.number("colocated_ratio", in.colocated_ratio, 0, 1);
  in.tie_tolerance = s.number("tie_tolerance", in.tie_tolerance, 0, 0.9);
  const std::string tree = s.string("tree", to_string(in.tree));
  if (!parse_tree_method(tree, in.tree)) {
    s.fail("tree", "unknown tree method \"" + tree +
                       "\" — use \"none\", \"exact\" (throughput interference, paper 000 §2.2) "
                       "\"rtt\" (scalable: RTTs between group representatives) or \"partition\" "
                       "(from groups = \"partition\"'s own RTTs)");
  }
  const std::string groups = s.string("groups", to_string(in.groups));
  if (!parse_group_method(groups, in.groups)) {
    s.fail("groups", "unknown group method \"" + groups +
                         "\" — use \"all_pairs\" (every pair probed), \"leaders\" (scalable) or "
                         "\"partition\" (scalable, concurrent)");
  }
  if (in.tree == TreeMethod::Partition && in.groups != GroupMethod::Partition)
    s.fail("tree",
           "tree = \"partition\" is built from what groups = \"partition\" measured — "
           "set groups = \"partition\" too, or use tree = \"rtt\"");
  in.partition_leaders = s.count("partition_leaders", in.partition_leaders, 2);
  in.partition_window_min = s.count("partition_window_min", in.partition_window_min, 2);
  in.rtt_tree_tolerance = s.number("rtt_tree_tolerance", in.rtt_tree_tolerance, 0, 1);
  in.throughput_bytes = static_cast<std::uint64_t>(s.integer(
      "throughput_bytes", static_cast<std::int64_t>(in.throughput_bytes), 1, kMaxMessageBytes));
  in.interference_drop = s.number("interference_drop", in.interference_drop, 0.01, 0.99);
  in.exact_max_groups =
      s.count("exact_max_groups", in.exact_max_groups, 2, static_cast<int>(max_processes()));
  return in;
}

// 0 written as a rate ("0", 0, "0GBps" — a unit the file knows) means copying is free; the
// bandwidth reader itself refuses rates below 1 Kbps, which no run could finish with.
bool is_zero_rate(const toml::node& node) {
  if (node.is_number()) return node.value<double>() == 0.0;
  const auto text = node.value_exact<std::string>();
  if (!text) return false;
  const std::size_t start = text->find_first_not_of(" \t");
  if (start == std::string::npos) return false;
  double value = 1;
  const char* first = text->data() + start;
  const auto [end, ec] = std::from_chars(first, text->data() + text->size(), value);
  return ec == std::errc{} && end != first && value == 0 &&
         parse_bandwidth("1" + std::string(end, text->data() + text->size())).has_value();
}

double read_copy_bandwidth(const Section& s, double fallback) {
  const toml::node* node = s.table().get("copy_bandwidth");
  if (node != nullptr && is_zero_rate(*node)) return 0;
  return s.bandwidth("copy_bandwidth", fallback);
}

CostConfig read_costs(const Section& s, CostConfig c) {
  c.relay = s.duration("relay", c.relay);
  c.select_per_connection = s.duration("select_per_connection", c.select_per_connection);
  c.connect = s.duration("connect", c.connect);
  c.send_overhead = s.duration("send_overhead", c.send_overhead);
  c.receive_overhead = s.duration("receive_overhead", c.receive_overhead);
  c.copy_bandwidth = read_copy_bandwidth(s, c.copy_bandwidth);
  return c;
}

PingPongConfig read_pingpong(const Section& s, PingPongConfig p) {
  p.message_bytes = static_cast<std::uint64_t>(
      s.integer("message_bytes", static_cast<std::int64_t>(p.message_bytes), 0, kMaxMessageBytes));
  p.rounds = s.count("rounds", p.rounds, 1, kMaxPingPongRounds);
  p.ping = s.count("ping", p.ping, 0, static_cast<int>(max_processes()));
  p.pong = s.count("pong", p.pong, -1, static_cast<int>(max_processes()));
  return p;
}

ConnectivityConfig read_connectivity(const Section& s, ConnectivityConfig c) {
  c.message_bytes = static_cast<std::uint64_t>(
      s.integer("message_bytes", static_cast<std::int64_t>(c.message_bytes), 0, kMaxMessageBytes));
  c.deadline = s.duration("deadline", c.deadline);
  if (c.deadline <= 0) s.fail("deadline", "deadline must be above 0 — e.g. \"60s\"");
  return c;
}

IntSortConfig read_intsort(const Section& s, IntSortConfig c) {
  c.total_keys = static_cast<std::uint64_t>(
      s.integer("total_keys", static_cast<std::int64_t>(c.total_keys), 1, kMaxTotalKeys));
  c.max_key = static_cast<std::uint32_t>(
      s.integer("max_key", c.max_key, 1, std::numeric_limits<std::uint32_t>::max()));
  c.iterations = s.count("iterations", c.iterations, 1, kMaxRepeats);
  c.compute_ns_per_key = s.integer("compute_ns_per_key", c.compute_ns_per_key, 0, kInt64Max);
  // The compute time of one iteration is keys x ns per key: past a day it is a typo, and past
  // int64 nanoseconds it wrapped to a negative time.
  const std::int64_t keys = static_cast<std::int64_t>(c.total_keys);
  if (capped_product({keys, c.compute_ns_per_key}, kMaxDuration) > kMaxDuration)
    s.fail("compute_ns_per_key", "total_keys x compute_ns_per_key is more than a day of compute (" +
                                     std::to_string(kMaxDuration / keys) +
                                     " ns per key at most for " + std::to_string(keys) +
                                     " keys) — lower compute_ns_per_key");
  return c;
}

}  // namespace

ProtocolConfig read_protocol(const Section& root) {
  ProtocolConfig out;
  if (auto protocol = root.sub("protocol")) {
    read_overlay(*protocol, out);
    if (auto inference = protocol->sub("inference")) {
      out.inference = read_inference(*inference, out.inference);
    }
    if (auto costs = protocol->sub("costs")) out.costs = read_costs(*costs, out.costs);
    read_directory(*protocol, out);
    read_window(*protocol, out.window);
  }
  if (auto workload = root.sub("workload")) {
    out.workload.kind = read_kind(*workload, out.workload.kind);
    if (auto pingpong = workload->sub("pingpong")) {
      out.workload.pingpong = read_pingpong(*pingpong, out.workload.pingpong);
    }
    if (auto intsort = workload->sub("intsort")) {
      out.workload.intsort = read_intsort(*intsort, out.workload.intsort);
    }
    if (auto connectivity = workload->sub("connectivity")) {
      out.workload.connectivity = read_connectivity(*connectivity, out.workload.connectivity);
    }
    if (auto multicast = workload->sub("multicast")) {
      out.workload.multicast = read_multicast(*multicast, out.workload.multicast);
    }
    if (auto lmmc = workload->sub("lmmc")) out.workload.lmmc = read_lmmc(*lmmc, out.workload.lmmc);
    if (auto indices = workload->sub("indices"))
      out.workload.indices = read_indices(*indices, out.workload.indices);
  }
  return out;
}

void check_relay_plan(const Section& root, const ProtocolConfig& protocol, bool sites) {
  if (protocol.overlay.plan != PlanKind::Relay) return;
  const auto section = root.sub("protocol");
  if (!sites) {
    section->fail("plan",
                  "plan = \"relay\" needs sites: add [[network.cluster]] tables (each "
                  "with relays = 1 or more), or use another plan");
  }
  if (protocol.relays == 0) {
    section->fail("plan",
                  "plan = \"relay\" but no cluster runs a relay — set relays = 1 in "
                  "the [[network.cluster]] tables");
  }
}

void check_workload(const Section& root, const ProtocolConfig& protocol, int processes) {
  if (protocol.workload.kind == WorkloadKind::Multicast)
    return check_multicast(root, protocol, processes);
  if (protocol.workload.kind == WorkloadKind::Lmmc) return check_lmmc(root, protocol, processes);
  if (protocol.workload.kind != WorkloadKind::PingPong) return;
  const PingPongConfig& p = protocol.workload.pingpong;
  auto workload = root.sub("workload");
  auto table = workload ? workload->sub("pingpong") : std::nullopt;
  // Point at the offending key when the file (or an override) set it; else at the nearest table.
  auto fail = [&](std::string_view key, const std::string& message) {
    if (table && table->has(key)) table->fail(key, message);
    if (workload) workload->fail("kind", message);
    root.fail_here(message);
  };
  if (processes < 2) {
    fail("", "a ping-pong needs 2 processes, the scenario has " + std::to_string(processes) +
                 " — add hosts or set workload.kind = \"none\"");
  }
  std::string ranks = " processes (ranks 0 to " + std::to_string(processes - 1) + ")";
  if (p.ping >= processes) {
    fail("ping", "ping = " + std::to_string(p.ping) + " but there are " +
                     std::to_string(processes) + ranks);
  }
  if (p.pong >= processes) {
    fail("pong", "pong = " + std::to_string(p.pong) + " but there are " +
                     std::to_string(processes) + ranks + " — -1 means the last rank");
  }
  Rank pong = p.pong < 0 ? processes - 1 : p.pong;
  if (pong == p.ping) {
    fail("pong", "ping and pong are both rank " + std::to_string(pong) +
                     " — a ping-pong needs two different ranks");
  }
}

}  // namespace tsunagi::scenario
