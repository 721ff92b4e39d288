// SVG/HTML writing helpers for the run report (report_svg.hpp).
#include "report_svg.hpp"

#include <cmath>
#include <cstdio>

namespace tsunagi::runner::report {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string num(double value) {
  if (!std::isfinite(value)) return "0";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  std::string text = buffer;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

std::string time_text(std::int64_t ns) {
  char buffer[32];
  const double value = static_cast<double>(ns);
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e9) {
    std::snprintf(buffer, sizeof buffer, "%.3g s", value * 1e-9);
  } else if (magnitude >= 1e6) {
    std::snprintf(buffer, sizeof buffer, "%.3g ms", value * 1e-6);
  } else if (magnitude >= 1e3) {
    std::snprintf(buffer, sizeof buffer, "%.3g us", value * 1e-3);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.0f ns", value);
  }
  return buffer;
}

std::string palette(std::size_t i, std::size_t n) {
  // The golden angle spreads neighbours apart even when n is large.
  const double hue = std::fmod(static_cast<double>(i) * 137.508, 360.0);
  const int lightness = n > 12 ? 55 + static_cast<int>(i % 3) * 10 : 60;
  return "hsl(" + num(hue) + ",65%," + std::to_string(lightness) + "%)";
}

std::string palette_dot(std::size_t i, std::size_t n) {
  const double hue = std::fmod(static_cast<double>(i) * 137.508, 360.0) / 360.0;
  const double value = n > 12 ? 0.80 + static_cast<double>(i % 3) * 0.07 : 0.87;
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.3f 0.550 %.3f", hue, value);
  return buffer;
}

std::string dot_quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

std::string attr(std::string_view name, std::string_view value) {
  return " " + std::string(name) + "=\"" + escape(value) + "\"";
}

Svg::Svg(std::string id, double width, double height, std::string title)
    : id_(std::move(id)), width_(width), height_(height), title_(std::move(title)) {}

Svg& Svg::rect(double x, double y, double w, double h, const std::string& attributes) {
  body_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w)
        << "\" height=\"" << num(h) << '"' << attributes << "/>\n";
  return *this;
}

Svg& Svg::line(double x1, double y1, double x2, double y2, const std::string& attributes) {
  body_ << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\""
        << num(y2) << '"' << attributes << "/>\n";
  return *this;
}

Svg& Svg::circle(double cx, double cy, double r, const std::string& attributes) {
  body_ << "<circle cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" r=\"" << num(r) << '"'
        << attributes << "/>\n";
  return *this;
}

Svg& Svg::text(double x, double y, std::string_view text, const std::string& attributes) {
  body_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << '"' << attributes << '>' << escape(text)
        << "</text>\n";
  return *this;
}

Svg& Svg::raw(std::string_view markup) {
  body_ << markup;
  return *this;
}

std::string Svg::str() const {
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\"" << attr("id", id_) << " viewBox=\"0 0 "
      << num(width_) << ' ' << num(height_) << "\" width=\"" << num(width_) << "\" height=\""
      << num(height_) << "\" font-family=\"sans-serif\" font-size=\"11\">\n<title>"
      << escape(title_) << "</title>\n"
      << body_.str() << "</svg>\n";
  return out.str();
}

}  // namespace tsunagi::runner::report
