// Checked reads from scenario tables; see reader.hpp.
#include "reader.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "error_sink.hpp"
#include "readers.hpp"

namespace tsunagi::scenario {
namespace {

constexpr const char* kBandwidthHelp =
    "write a number and a unit: bps, Kbps, Mbps, Gbps, Tbps (bits/s) or Bps, KBps, MBps, "
    "GBps, TBps (bytes/s), e.g. \"1Gbps\"; a plain number means bytes/s";
constexpr const char* kDurationHelp = "write a number and a unit: ns, us, ms or s, e.g. \"5us\"";

std::string range_text(double min, double max) {
  std::ostringstream out;
  if (max >= std::numeric_limits<double>::max() / 2) {
    out << "use a value of at least " << min;
  } else {
    out << "use a value from " << min << " to " << max;
  }
  return out.str();
}

std::string range_text(std::int64_t min, std::int64_t max) {
  if (max >= std::numeric_limits<int>::max())
    return "use a value of at least " + std::to_string(min);
  return "use a value from " + std::to_string(min) + " to " + std::to_string(max);
}

}  // namespace

std::optional<std::string> unusable_bandwidth(std::string_view key, double bytes_per_second) {
  if (bytes_per_second >= kMinBandwidth) return std::nullopt;
  std::ostringstream out;
  out << key << " = " << bytes_per_second * 8
      << " bits/s is too slow for a run to finish — use at least \"1Kbps\"";
  return out.str();
}

std::optional<std::string> unusable_duration(std::string_view key, TimeNs duration) {
  const bool latency = key.ends_with("latency");
  const TimeNs limit = latency ? kMaxLatency : kMaxDuration;
  if (duration <= limit) return std::nullopt;
  return std::string(key) + " = " + std::to_string(duration / kNsPerSec) + " s is longer than " +
         (latency ? "10 s: no connect across such a link finishes — use at most \"10s\""
                  : "a day — use at most \"86400s\"");
}

ScenarioError error_at(const toml::source_region& where, const std::string& file,
                       const std::string& message) {
  if (where.path && where.path->starts_with(kOverridePrefix))
    return ScenarioError(*where.path, 0, 0, message);
  const std::string& name = where.path ? *where.path : file;
  return ScenarioError(name, static_cast<int>(where.begin.line),
                       static_cast<int>(where.begin.column), message);
}

void fail_at(const toml::source_region& where, const std::string& file,
             const std::string& message) {
  throw error_at(where, file, message);
}

std::string describe(const toml::node& node) {
  std::ostringstream out;
  switch (node.type()) {
    case toml::node_type::string:
      out << "a string (\"" << *node.value<std::string>() << "\")";
      break;
    case toml::node_type::integer:
      out << "an integer (" << *node.value<std::int64_t>() << ")";
      break;
    case toml::node_type::floating_point:
      out << "a number (" << *node.value<double>() << ")";
      break;
    case toml::node_type::boolean:
      out << "a boolean (" << *node.value<bool>() << ")";
      break;
    case toml::node_type::array:
      out << "an array";
      break;
    case toml::node_type::table:
      out << "a table";
      break;
    default:
      out << "a date/time";
      break;
  }
  return out.str();
}

Section::Section(const toml::table& table, std::string path, std::string file)
    : table_(&table), path_(std::move(path)), file_(std::move(file)) {}

std::string Section::path_of(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

void Section::fail(std::string_view key, const std::string& message) const {
  if (const toml::node* node = table_->get(key)) fail_at(node->source(), file_, message);
  fail_here(message);
}

void Section::fail_here(const std::string& message) const {
  fail_at(table_->source(), file_, message);
}

void Section::wrong_type(std::string_view key, const toml::node& node, const std::string& expected,
                         const std::string& example) const {
  std::string fix = "write " + std::string(key) + " = " + example;
  if (node.is_string()) fix += " (no quotes)";
  fail(key, path_of(key) + " must be " + expected + ", not " + describe(node) + " — " + fix);
}

std::int64_t Section::integer(std::string_view key, std::int64_t fallback, std::int64_t min,
                              std::int64_t max) const {
  return recovering(fallback, [&]() -> std::int64_t {
    const toml::node* node = table_->get(key);
    if (!node) return fallback;
    auto value = node->value_exact<std::int64_t>();
    if (!value) wrong_type(key, *node, "an integer", std::to_string(std::max(fallback, min)));
    if (*value < min || *value > max) {
      std::string what = min == 0 && *value < 0 ? " cannot be negative" : " is out of range";
      fail(key,
           path_of(key) + what + " (" + std::to_string(*value) + ") — " + range_text(min, max));
    }
    return *value;
  });
}

int Section::count(std::string_view key, int fallback, int min, int max) const {
  return static_cast<int>(integer(key, fallback, min, max));
}

double Section::number(std::string_view key, double fallback, double min, double max) const {
  return recovering(fallback, [&]() -> double {
    const toml::node* node = table_->get(key);
    if (!node) return fallback;
    std::optional<double> value;
    if (auto i = node->value_exact<std::int64_t>()) value = static_cast<double>(*i);
    if (auto f = node->value_exact<double>()) value = *f;
    if (!value) {
      std::ostringstream example;
      example << fallback;
      wrong_type(key, *node, "a number", example.str());
    }
    if (!std::isfinite(*value) || *value < min || *value > max) {
      std::ostringstream what;
      what << path_of(key) << " is out of range (" << *value << ") — " << range_text(min, max);
      fail(key, what.str());
    }
    return *value;
  });
}

bool Section::boolean(std::string_view key, bool fallback) const {
  return recovering(fallback, [&]() -> bool {
    const toml::node* node = table_->get(key);
    if (!node) return fallback;
    auto value = node->value_exact<bool>();
    if (!value) wrong_type(key, *node, "true or false", fallback ? "true" : "false");
    return *value;
  });
}

std::string Section::string(std::string_view key, const std::string& fallback) const {
  return recovering(fallback, [&]() -> std::string {
    const toml::node* node = table_->get(key);
    if (!node) return fallback;
    auto value = node->value_exact<std::string>();
    if (!value) wrong_type(key, *node, "a string", "\"" + fallback + "\"");
    return *value;
  });
}

double Section::bandwidth(std::string_view key, double fallback) const {
  return recovering(fallback, [&]() -> double {
    const toml::node* node = table_->get(key);
    if (!node) return fallback;
    if (node->is_number())
      return number(key, fallback, kMinBandwidth, std::numeric_limits<double>::max());
    auto text = node->value_exact<std::string>();
    if (!text) wrong_type(key, *node, "a bandwidth", "\"1Gbps\"");
    auto value = parse_bandwidth(*text);
    if (!value) {
      fail(key, path_of(key) + " = \"" + *text + "\" is not a bandwidth — " + kBandwidthHelp);
    }
    if (auto why = unusable_bandwidth(path_of(key), *value)) fail(key, *why);
    return *value;
  });
}

TimeNs Section::duration(std::string_view key, TimeNs fallback) const {
  return recovering(fallback, [&]() -> TimeNs {
    const toml::node* node = table_->get(key);
    if (!node) return fallback;
    if (node->is_number()) {
      fail(key, path_of(key) + " has no unit — a duration is a string with a unit, e.g. " +
                    std::string(key) + " = \"5us\"");
    }
    auto text = node->value_exact<std::string>();
    if (!text) wrong_type(key, *node, "a duration", "\"5us\"");
    auto value = parse_duration(*text);
    if (!value) {
      fail(key, path_of(key) + " = \"" + *text + "\" is not a duration (>= 0) — " + kDurationHelp);
    }
    if (auto why = unusable_duration(path_of(key), *value)) fail(key, *why);
    return *value;
  });
}

std::optional<Section> Section::sub(std::string_view key) const {
  const toml::table* table = table_->get_as<toml::table>(key);
  if (!table) return std::nullopt;
  return Section(*table, path_of(key), file_);
}

std::int64_t max_processes() {
  const char* text = std::getenv("TSUNAGI_MAX_PROCESSES");
  if (text == nullptr || *text == '\0') return kDefaultMaxProcesses;
  std::int64_t value = 0;
  const char* end = text + std::strlen(text);
  const auto [at, error] = std::from_chars(text, end, value);
  if (error != std::errc{} || at != end || value < 1 || value > kMaxProcessesCeiling)
    throw std::invalid_argument("TSUNAGI_MAX_PROCESSES=" + std::string(text) +
                                ": give a whole number from 1 to " +
                                std::to_string(kMaxProcessesCeiling) + ", or unset it (" +
                                std::to_string(kDefaultMaxProcesses) + ")");
  return value;
}

std::int64_t capped_product(std::initializer_list<std::int64_t> factors, std::int64_t cap) {
  std::int64_t product = 1;
  for (std::int64_t factor : factors) {
    if (factor <= 0) return 0;
    if (product > cap / factor) return cap + 1;
    product *= factor;
  }
  return product;
}

}  // namespace tsunagi::scenario
