// Reading scenario files (TOML) into a Scenario, with `--set key=value` overrides, plus the
// helpers the loader is built from that other front ends reuse: unit parsing and the regular
// tree generator. The format is documented key by key in docs/scenario-format.md.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::scenario {

// Thrown for any bad input. what() is "FILE:LINE:COL: what is wrong — how to fix it", so an
// editor can jump to the spot. Problems in a `--set` override name the override instead:
// "--set KEY=VALUE: what is wrong — how to fix it" (then line() and column() are 0).
class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(std::string file, int line, int column, const std::string& message);

  const std::string& file() const { return file_; }
  int line() const { return line_; }
  int column() const { return column_; }
  // The message without the "FILE:LINE:COL: " prefix.
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  int line_;
  int column_;
  std::string message_;
};

// Several independent errors of one file (issue 33), in file order. The first is this error's
// file(), line(), column() and message(); what() lists them, one "FILE:LINE:COL: ..." a line,
// at most `listed` of them and then "… and K more errors". A TOML syntax error is reported
// alone (what follows it cannot be read); unknown keys and misplaced tables are reported
// together, before any value is read (a misspelt key's value would be read as its default).
class ScenarioErrors : public ScenarioError {
 public:
  ScenarioErrors(std::vector<ScenarioError> errors, std::size_t listed);

  const std::vector<ScenarioError>& errors() const { return errors_; }
  const char* what() const noexcept override { return text_.c_str(); }

 private:
  std::vector<ScenarioError> errors_;
  std::string text_;
};

// Overrides are "dotted.key=value" (arrays by index: "network.switch.1.hosts=8" or
// "network.switch[1].hosts=8", or switches by name: "network.switch.edge1.hosts=8"). The value
// is read as a TOML value (int, float, bool, array, inline table); anything else, such as a
// bare word or "10Gbps", becomes a string. Overrides are applied in order, before validation.
Scenario load_scenario_file(const std::string& path,
                            const std::vector<std::string>& overrides = {});
// An override "costs-file:PATH" overlays the costs file PATH (`--costs`, issue 32) at its place
// in the list: its [protocol.costs] and [network.factors] keys, errors at PATH:LINE:COL. It
// travels with the --set overrides, so realnet's daemons and sweep points get it too.
inline constexpr std::string_view kCostsFileOverride = "costs-file:";
Scenario load_scenario_string(const std::string& toml_text, const std::string& name_for_errors,
                              const std::vector<std::string>& overrides = {});

// ---- units (scenario files write quantities as strings with units)

// "1Gbps", "125MBps", "1.5 Kbps", or a plain number ("125e6") → bytes per second.
// Bits: bps Kbps Mbps Gbps Tbps; bytes: Bps KBps MBps GBps TBps; prefixes are powers of 1000
// (as in SimGrid). Case matters: b is a bit, B a byte. Returns nullopt unless the result is a
// finite number > 0.
std::optional<double> parse_bandwidth(std::string_view text);

// "5us", "0.5ms", "3s", "20ns" → integer nanoseconds (rounded to the nearest). Units: ns us ms s
// ("µs" is accepted for "us"). A unit is required: a bare number is ambiguous. Returns nullopt
// for negative, non-finite or unparsable input.
std::optional<TimeNs> parse_duration(std::string_view text);

// ---- generators

// One level of a regular tree, from the root down: every switch one level up has `fanout`
// children here, each joined to its parent by an uplink with this bandwidth and latency.
struct TreeLevel {
  int fanout = 1;
  double uplink_bandwidth = 125e6;
  TimeNs uplink_latency = 5 * kNsPerUs;
};

struct TreeSpec {
  std::vector<TreeLevel> levels;  // empty = a single switch holding all hosts
  int hosts_per_leaf = 1;         // hosts hang off the bottom level only
  double host_bandwidth = 125e6;
  TimeNs host_latency = 5 * kNsPerUs;
};

// Switches of a regular tree in breadth-first order (parents before children, leaves left to
// right). The root is "s", its children "s.0", "s.1", grandchildren "s.0.0", and so on.
std::vector<SwitchSpec> generate_tree(const TreeSpec& spec);

// [network.random_tree]: a seeded random tree. Depth (levels below the root), fan-out of
// inner switches and hosts per leaf are drawn from [min, max]; every level draws its uplink
// speed and latency from the lists. Hosts hang off leaves only. Root "r", children "r.0", ...
struct RandomTreeSpec {
  std::uint64_t seed = 1;
  int depth_min = 2, depth_max = 4;
  int fanout_min = 2, fanout_max = 8;
  int hosts_min = 4, hosts_max = 40;
  std::vector<double> uplink_bandwidths{125e6};
  std::vector<TimeNs> uplink_latencies{5 * kNsPerUs};
  double host_bandwidth = 125e6;
  TimeNs host_latency = 5 * kNsPerUs;
};
std::vector<SwitchSpec> generate_random_tree(const RandomTreeSpec& spec);

// What generate_random_tree(spec) would build, counted without building it, so the loader can
// refuse a tree too large to hold before it allocates one. Counting stops as soon as either
// count passes its limit (it is then just above it).
struct TreeSize {
  std::int64_t switches = 0;
  std::int64_t hosts = 0;
};
TreeSize random_tree_size(const RandomTreeSpec& spec, std::int64_t max_switches,
                          std::int64_t max_hosts);

// Number of switches generate_tree would produce, without building them (for size limits).
std::int64_t tree_switch_count(const TreeSpec& spec);

}  // namespace tsunagi::scenario
