// Ranges of a sweep SPEC. See sweep_range.hpp.
#include "sweep_range.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>

namespace tsunagi::app::sweep {

namespace {

constexpr const char* kRangeHelp =
    "a range is A..B, A..B:STEP or A..B:xRATIO with A <= B, e.g. 0..16, 0..16:2, "
    "0.1..0.5:0.1 or 1..1024:x2";

// Tolerances that absorb the rounding of A + k*STEP and A*R^k (a decimal step such as 0.1 is
// not exact in binary), far below any step a sweep means.
constexpr double kStepTolerance = 1e-6;   // of a step
constexpr double kRatioTolerance = 1e-9;  // relative, of the end

struct Number {
  double value = 0;
  std::optional<std::int64_t> integer;  // set when the text is an integer
};

std::optional<Number> parse_number(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  const char* const end = text.data() + text.size();
  std::int64_t integer = 0;
  if (const auto [stop, error] = std::from_chars(text.data(), end, integer);
      error == std::errc() && stop == end) {
    return Number{static_cast<double>(integer), integer};
  }
  double value = 0;
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end || !std::isfinite(value)) return std::nullopt;
  return Number{value, std::nullopt};
}

struct Parts {
  std::string_view piece, first, last, step;  // step empty when not given
};

[[noreturn]] void fail(const Parts& parts, const std::string& what) {
  throw RangeError("bad range '" + std::string(parts.piece) + "': " + what);
}

Number number(const Parts& parts, std::string_view text, const char* what) {
  std::optional<Number> parsed = parse_number(text);
  if (!parsed) {
    fail(parts, std::string(what) + " '" + std::string(text) + "' is not a number — " + kRangeHelp +
                    " (values with units are listed, not ranged: 1us,2us,5us)");
  }
  return *parsed;
}

void check_order(const Parts& parts, const Number& first, const Number& last) {
  if (first.value > last.value) {
    fail(parts, std::string("the start is greater than the end — ") + kRangeHelp);
  }
}

void check_count(const Parts& parts, double count) {
  if (count > static_cast<double>(kMaxPoints)) {
    const std::string how_many = std::isfinite(count) ? format_decimal(count) : "too many";
    throw RangeError("range '" + std::string(parts.piece) + "' has " + how_many +
                     " values, more than a sweep runs (" + std::to_string(kMaxPoints) +
                     ") — use a larger step or a smaller range");
  }
}

// Appends a decimal value; two values that print the same would be one point twice.
void push_decimal(const Parts& parts, double value, std::vector<std::string>& values) {
  std::string text = format_decimal(value);
  if (!values.empty() && values.back() == text) {
    fail(parts,
         "the step is below the precision of the values (15 significant digits) — "
         "use a larger step");
  }
  values.push_back(std::move(text));
}

std::vector<std::string> integer_steps(const Parts& parts, std::int64_t first, std::int64_t last,
                                       std::int64_t step) {
  // (last - first) / step + 1 values, computed without overflow.
  const auto span = static_cast<std::uint64_t>(last) - static_cast<std::uint64_t>(first);
  const std::uint64_t count = span / static_cast<std::uint64_t>(step) + 1;
  check_count(parts, static_cast<double>(count));
  std::vector<std::string> values;
  for (std::uint64_t i = 0; i < count; ++i) {
    // In unsigned arithmetic: first + i * step lies in [first, last], the steps may not.
    const std::uint64_t value =
        static_cast<std::uint64_t>(first) + i * static_cast<std::uint64_t>(step);
    values.push_back(std::to_string(static_cast<std::int64_t>(value)));
  }
  return values;
}

std::vector<std::string> decimal_steps(const Parts& parts, double first, double last, double step) {
  const double count = std::floor((last - first) / step + kStepTolerance) + 1;
  check_count(parts, count);
  // The rounding error of first + k*step is relative to the range's largest magnitude, not to
  // the value: near 0 it would print as noise (-0.3 + 3*0.1 = 5.6e-17). So values are snapped
  // to 15 significant digits of that magnitude.
  const double scale = std::max({std::fabs(first), std::fabs(last), step});
  const double quantum = std::pow(10.0, std::floor(std::log10(scale)) - 14);
  std::vector<std::string> values;
  // first + k*step, not a running sum: the error stays one rounding, not k of them.
  for (std::size_t k = 0; static_cast<double>(k) < count; ++k) {
    const double value = first + static_cast<double>(k) * step;
    push_decimal(parts, std::round(value / quantum) * quantum, values);
  }
  return values;
}

std::vector<std::string> linear(const Parts& parts) {
  const Number first = number(parts, parts.first, "start");
  const Number last = number(parts, parts.last, "end");
  const Number step = parts.step.empty() ? Number{1, 1} : number(parts, parts.step, "step");
  check_order(parts, first, last);
  if (!(step.value > 0)) {
    fail(parts, "step " + std::string(parts.step) +
                    " never reaches the end — give a STEP above 0 (A..B:STEP, e.g. 0..16:2)");
  }
  if (first.integer && last.integer && step.integer) {
    return integer_steps(parts, *first.integer, *last.integer, *step.integer);
  }
  return decimal_steps(parts, first.value, last.value, step.value);
}

std::vector<std::string> geometric(const Parts& parts) {
  const Number first = number(parts, parts.first, "start");
  const Number last = number(parts, parts.last, "end");
  const Number ratio = number(parts, parts.step.substr(1), "ratio");
  if (!(ratio.value > 1)) {
    fail(parts, std::string(parts.step) +
                    " is not a ratio above 1 — a geometric range A..B:xR multiplies by R > 1, "
                    "e.g. 1..1024:x2");
  }
  if (!(first.value > 0)) {
    fail(parts, "a geometric range starts above 0 (A > 0 in A..B:xR), e.g. 1..1024:x2");
  }
  check_order(parts, first, last);
  std::vector<std::string> values;
  if (first.integer && last.integer && ratio.integer) {
    // v * R <= B exactly when v <= floor(B / R): no overflow, at most 63 values.
    for (std::int64_t v = *first.integer;; v *= *ratio.integer) {
      values.push_back(std::to_string(v));
      if (v > *last.integer / *ratio.integer) break;
    }
    return values;
  }
  const double count =
      std::floor(std::log(last.value / first.value) / std::log(ratio.value) + kRatioTolerance) + 1;
  check_count(parts, count);
  for (std::size_t k = 0; static_cast<double>(k) < count; ++k) {
    push_decimal(parts, first.value * std::pow(ratio.value, static_cast<double>(k)), values);
  }
  return values;
}

}  // namespace

bool looks_like_range(std::string_view piece) {
  if (piece.empty() || piece.find("..") == std::string_view::npos) return false;
  const char c = piece.front();
  return (c >= '0' && c <= '9') || c == '-' || c == '+';
}

std::vector<std::string> expand_range(std::string_view piece) {
  Parts parts;
  parts.piece = piece;
  const auto dots = piece.find("..");
  parts.first = piece.substr(0, dots);
  parts.last = piece.substr(dots + 2);
  if (const auto colon = parts.last.find(':'); colon != std::string_view::npos) {
    parts.step = parts.last.substr(colon + 1);
    parts.last = parts.last.substr(0, colon);
    if (parts.step.empty()) fail(parts, std::string("no STEP after ':' — ") + kRangeHelp);
  }
  if (!parts.step.empty() && parts.step.front() == 'x') return geometric(parts);
  return linear(parts);
}

std::string format_decimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  std::string result = text;
  return result == "-0" ? "0" : result;
}

}  // namespace tsunagi::app::sweep
