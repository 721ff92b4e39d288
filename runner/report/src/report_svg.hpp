// Small helpers for writing SVG and HTML by hand: escaping, number formatting, an element
// builder. The report's pictures are generated here rather than by a layout engine so that the
// page needs nothing installed to be built and is the same on every machine.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>

namespace tsunagi::runner::report {

// Text and attribute values: &, <, >, " and ' escaped.
std::string escape(std::string_view text);

// A coordinate or length with at most 2 decimals, no trailing zeros ("12.5", "3").
std::string num(double value);

// "12.3 ms", "450 us", "2.1 s": a time in nanoseconds for labels.
std::string time_text(std::int64_t ns);

// A categorical colour (HSL, spread around the wheel) for index i of n.
std::string palette(std::size_t i, std::size_t n);

// The same colour for Graphviz ("H S V" fractions).
std::string palette_dot(std::size_t i, std::size_t n);

// Quoted for DOT: "a \"b\"".
std::string dot_quoted(std::string_view text);

// Accumulates one SVG document: <svg> with a viewBox, a <title>, and the elements added.
class Svg {
 public:
  Svg(std::string id, double width, double height, std::string title);
  Svg& rect(double x, double y, double w, double h, const std::string& attributes);
  Svg& line(double x1, double y1, double x2, double y2, const std::string& attributes);
  Svg& circle(double cx, double cy, double r, const std::string& attributes);
  Svg& text(double x, double y, std::string_view text, const std::string& attributes = "");
  // Anything else, verbatim (a <g>, a <path>); the caller escapes.
  Svg& raw(std::string_view markup);
  std::string str() const;  // the whole <svg>...</svg>

 private:
  std::string id_;
  double width_;
  double height_;
  std::string title_;
  std::ostringstream body_;
};

// ` class="..."` etc. built without quoting mistakes: attr("class", "rank bad").
std::string attr(std::string_view name, std::string_view value);

}  // namespace tsunagi::runner::report
