// Typed, checked reads from one TOML table of a scenario. Every failure throws a ScenarioError
// that points at the offending value (or its table) and says how to fix it; during a load, a
// typed read (integer, number, ..., string_list) records it instead and returns its fallback,
// so that the file's other errors are found too (error_sink.hpp).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "tsunagi/model/types.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::scenario {

// Rates and times a run can finish with (docs/scenario-format.md, "Limits"). A link slower than
// 1 Kbps takes seconds per frame, and 1e-300 bps made every connect time out ("cannot reach
// the rendezvous"); a latency over 10 s outlasts every connect timeout; and any duration over
// a day is a typo that would also bring `now + duration` near the end of int64 nanoseconds.
inline constexpr double kMinBandwidth = 125;  // bytes/s (1 Kbps)
inline constexpr TimeNs kMaxLatency = 10 * kNsPerSec;
inline constexpr TimeNs kMaxDuration = 86'400 * kNsPerSec;
// Why a rate or a link latency cannot be used (with the fix), or nothing. `key` names it.
std::optional<std::string> unusable_bandwidth(std::string_view key, double bytes_per_second);
std::optional<std::string> unusable_duration(std::string_view key, TimeNs duration);

// Source path given to values parsed from a --set override; errors about them name the
// override instead of a file position.
inline constexpr std::string_view kOverridePrefix = "--set ";

// A ScenarioError located at `where`; `file` is used when the region has no path (nodes
// created by overrides). fail_at throws it.
ScenarioError error_at(const toml::source_region& where, const std::string& file,
                       const std::string& message);
[[noreturn]] void fail_at(const toml::source_region& where, const std::string& file,
                          const std::string& message);

// "a string (\"4\")", "an integer", "a table" — for "must be X, not Y" messages.
std::string describe(const toml::node& node);

class Section {
 public:
  // `path` is the dotted name used in messages ("network.switch[2]"; empty for the top level).
  Section(const toml::table& table, std::string path, std::string file);

  const toml::table& table() const { return *table_; }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }
  bool has(std::string_view key) const { return table_->contains(key); }
  // Line of the table's header (or first key) for "listed at line N" hints; 0 if unknown.
  int line() const { return static_cast<int>(table_->source().begin.line); }
  std::string path_of(std::string_view key) const;

  [[noreturn]] void fail(std::string_view key, const std::string& message) const;
  [[noreturn]] void fail_here(const std::string& message) const;

  std::int64_t integer(std::string_view key, std::int64_t fallback, std::int64_t min,
                       std::int64_t max) const;
  int count(std::string_view key, int fallback, int min = 0,
            int max = std::numeric_limits<int>::max()) const;
  double number(std::string_view key, double fallback, double min, double max) const;
  bool boolean(std::string_view key, bool fallback) const;
  std::string string(std::string_view key, const std::string& fallback) const;
  double bandwidth(std::string_view key, double fallback) const;
  TimeNs duration(std::string_view key, TimeNs fallback) const;
  // A list: a TOML array (or one bare value, read as a list of one). Errors point at the
  // element. An empty array is refused: a list key left out takes its default instead.
  std::vector<std::int64_t> integer_list(std::string_view key,
                                         const std::vector<std::int64_t>& fallback,
                                         std::int64_t min, std::int64_t max) const;
  std::vector<std::string> string_list(std::string_view key,
                                       const std::vector<std::string>& fallback) const;

  // The sub-table at `key`, or nullopt when absent. The schema check has already made sure
  // tables are tables.
  std::optional<Section> sub(std::string_view key) const;

 private:
  [[noreturn]] void wrong_type(std::string_view key, const toml::node& node,
                               const std::string& expected, const std::string& example) const;

  const toml::table* table_;
  std::string path_;
  std::string file_;
};

}  // namespace tsunagi::scenario
