// [network.random_tree]: the seeded random tree's ranges and link choices, read and checked,
// and the tree counted before it is built (docs/scenario-format.md, "Limits").
#include <limits>
#include <tuple>

#include "readers.hpp"

namespace tsunagi::scenario {
namespace {

constexpr double kGbps = 1e9 / 8;  // bytes/s

// An integer or a [min, max] pair within [low, high].
std::pair<int, int> read_range(const Section& s, std::string_view key, std::pair<int, int> fallback,
                               int low, int high) {
  const toml::node* node = s.table().get(key);
  if (!node) return fallback;
  const std::string help = " — write " + std::string(key) + " = [" +
                           std::to_string(fallback.first) + ", " + std::to_string(fallback.second) +
                           "] or a single number, within " + std::to_string(low) + ".." +
                           std::to_string(high);
  if (node->is_integer()) {
    const int v = s.count(key, fallback.first, low);
    if (v > high) s.fail(key, s.path_of(key) + " is too large" + help);
    return {v, v};
  }
  const toml::array* pair = node->as_array();
  if (!pair || pair->size() != 2 || !(*pair)[0].is_integer() || !(*pair)[1].is_integer())
    s.fail(key, s.path_of(key) + " is not a range" + help);
  const auto a = (*pair)[0].value<std::int64_t>().value_or(0);
  const auto b = (*pair)[1].value<std::int64_t>().value_or(0);
  if (a < low || b > high || a > b) s.fail(key, s.path_of(key) + " is out of bounds" + help);
  return {static_cast<int>(a), static_cast<int>(b)};
}

// A string or a list of strings, each parsed by `parse`.
template <class T, class Parse>
std::vector<T> read_choices(const Section& s, std::string_view key, std::vector<T> fallback,
                            Parse parse, const char* example) {
  const toml::node* node = s.table().get(key);
  if (!node) return fallback;
  std::vector<const toml::node*> items;
  if (const toml::array* list = node->as_array()) {
    for (const toml::node& item : *list) items.push_back(&item);
  } else {
    items.push_back(node);
  }
  std::vector<T> out;
  for (const toml::node* item : items) {
    auto text = item->value_exact<std::string>();
    auto value = text ? parse(*text) : std::nullopt;
    if (!value)
      s.fail(key, s.path_of(key) + " must be a string or a list of strings like " + example);
    out.push_back(*value);
  }
  if (out.empty())
    s.fail(key, s.path_of(key) + " is an empty list — give at least one, e.g. " + example);
  return out;
}

}  // namespace

std::vector<SwitchSpec> read_random_tree(const Section& s) {
  RandomTreeSpec spec;
  spec.seed =
      static_cast<std::uint64_t>(s.integer("seed", 1, 0, std::numeric_limits<std::int64_t>::max()));
  std::tie(spec.depth_min, spec.depth_max) = read_range(s, "depth", {2, 4}, 1, 8);
  std::tie(spec.fanout_min, spec.fanout_max) = read_range(s, "fanout", {2, 8}, 1, 64);
  std::tie(spec.hosts_min, spec.hosts_max) = read_range(s, "hosts_per_leaf", {4, 40}, 1, 4096);
  spec.uplink_bandwidths = read_choices<double>(s, "uplink_bandwidth", {kGbps}, parse_bandwidth,
                                                "[\"1Gbps\", \"10Gbps\"]");
  spec.uplink_latencies = read_choices<TimeNs>(s, "uplink_latency", {5 * kNsPerUs}, parse_duration,
                                               "[\"5us\", \"20us\"]");
  spec.host_bandwidth = s.bandwidth("host_bandwidth", kGbps);
  spec.host_latency = s.duration("host_latency", 5 * kNsPerUs);
  for (double rate : spec.uplink_bandwidths)
    if (auto why = unusable_bandwidth(s.path_of("uplink_bandwidth"), rate))
      s.fail("uplink_bandwidth", *why);
  for (TimeNs latency : spec.uplink_latencies)
    if (auto why = unusable_duration(s.path_of("uplink_latency"), latency))
      s.fail("uplink_latency", *why);
  // Counted before it is built: depth 8 with fan-out 64 would be 2^48 switches, and building
  // them ran until bad_alloc. The error points at the first of the keys that set the size.
  const TreeSize size = random_tree_size(spec, kMaxSwitches, max_processes());
  if (size.switches > kMaxSwitches || size.hosts > max_processes()) {
    const std::string what = size.switches > kMaxSwitches
                                 ? std::to_string(kMaxSwitches) + " switches"
                                 : std::to_string(max_processes()) + " hosts";
    std::string_view key = "hosts_per_leaf";
    for (std::string_view k : {"fanout", "depth", "hosts_per_leaf"}) {
      if (s.has(k)) {
        key = k;
        break;
      }
    }
    s.fail(key,
           "this random tree draws more than " + what + " — lower depth, fanout or hosts_per_leaf");
  }
  return generate_random_tree(spec);
}

}  // namespace tsunagi::scenario
