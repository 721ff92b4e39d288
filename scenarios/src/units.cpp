// Quantities with units, as scenario files write them ("1Gbps", "20us").
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <utility>

#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::scenario {
namespace {

struct Unit {
  std::string_view name;
  double factor;  // to bytes/s or to ns
};

// Decimal prefixes, as SimGrid's own unit parser uses; a byte is 8 bits.
constexpr std::array<Unit, 11> kBandwidthUnits{{{"bps", 1.0 / 8},
                                                {"Kbps", 1e3 / 8},
                                                {"Mbps", 1e6 / 8},
                                                {"Gbps", 1e9 / 8},
                                                {"Tbps", 1e12 / 8},
                                                {"Bps", 1},
                                                {"KBps", 1e3},
                                                {"MBps", 1e6},
                                                {"GBps", 1e9},
                                                {"TBps", 1e12},
                                                {"", 1}}};

constexpr std::array<Unit, 5> kDurationUnits{
    {{"ns", 1}, {"us", 1e3}, {"\xC2\xB5s", 1e3}, {"ms", 1e6}, {"s", 1e9}}};

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// Splits "1.5 Gbps" into 1.5 and "Gbps". from_chars accepts no leading '+', and neither do we.
std::optional<std::pair<double, std::string_view>> split_number(std::string_view text) {
  text = trim(text);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data()) return std::nullopt;
  if (!std::isfinite(value)) return std::nullopt;
  auto unit = trim(text.substr(static_cast<std::size_t>(end - text.data())));
  return std::pair{value, unit};
}

template <std::size_t N>
std::optional<double> scaled(std::string_view text, const std::array<Unit, N>& units) {
  auto parts = split_number(text);
  if (!parts) return std::nullopt;
  for (const Unit& unit : units) {
    if (unit.name == parts->second) return parts->first * unit.factor;
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> parse_bandwidth(std::string_view text) {
  auto value = scaled(text, kBandwidthUnits);
  if (!value || !std::isfinite(*value) || *value <= 0) return std::nullopt;
  return value;
}

std::optional<TimeNs> parse_duration(std::string_view text) {
  auto parts = split_number(text);
  // A bare number could mean seconds or nanoseconds; refuse rather than guess.
  if (!parts || parts->second.empty()) return std::nullopt;
  auto value = scaled(text, kDurationUnits);
  if (!value || *value < 0) return std::nullopt;
  double rounded = std::round(*value);
  // TimeNs is int64: about 292 years, more than any run needs.
  if (rounded >= static_cast<double>(std::numeric_limits<TimeNs>::max())) return std::nullopt;
  return static_cast<TimeNs>(rounded);
}

}  // namespace tsunagi::scenario
