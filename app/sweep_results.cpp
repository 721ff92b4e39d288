// Results, cells and durations of a sweep. See sweep_results.hpp.
#include "sweep_results.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "tsunagi/runner/results/output_files.hpp"

namespace tsunagi::app::sweep {

namespace fs = std::filesystem;
using nlohmann::json;

std::string format_duration(double seconds) {
  char text[48];
  if (seconds < 1) {
    std::snprintf(text, sizeof text, "%.2f s", seconds);
  } else if (seconds < 10) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.0f s", seconds);
  } else if (seconds < 3600) {
    const long s = std::lround(seconds);
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60);
    std::snprintf(text, sizeof text, "%ld h %02ld min", m / 60, m % 60);
  }
  return text;
}

std::optional<json> read_json_file(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    return json::parse(in);
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

std::optional<json> read_complete_result(const fs::path& dir) {
  std::optional<json> result = read_json_file(dir / runner::kResultFileName);
  if (!result || !result->is_object() || !result->contains("ok")) return std::nullopt;
  return result;
}

const json* value_at(const json& value, std::string_view path) {
  if (path.empty()) return &value;
  if (value.is_object()) {
    // Longest member name first: "a.b.c" tries member "a.b.c", then "a.b" + ".c", then "a".
    for (std::size_t end = path.size(); end != std::string_view::npos && end > 0;
         end = end == 0 ? std::string_view::npos : path.rfind('.', end - 1)) {
      const auto member = value.find(std::string(path.substr(0, end)));
      if (member == value.end()) continue;
      const std::string_view rest = end == path.size() ? std::string_view() : path.substr(end + 1);
      if (const json* found = value_at(*member, rest)) return found;
    }
    return nullptr;
  }
  if (value.is_array()) {
    const std::string_view first = path.substr(0, path.find('.'));
    if (first.empty() || first.find_first_not_of("0123456789") != std::string_view::npos) {
      return nullptr;
    }
    const std::size_t index = std::stoul(std::string(first));
    if (index >= value.size()) return nullptr;
    const std::string_view rest =
        first.size() == path.size() ? std::string_view() : path.substr(first.size() + 1);
    return value_at(value[index], rest);
  }
  return nullptr;
}

std::string csv_text(const json* value) {
  if (value == nullptr || value->is_null()) return "";
  if (value->is_string()) return value->get<std::string>();
  if (value->is_number_float()) {
    // The shortest text that reads back as the same double, as result.json has it and as
    // Python's json and pandas print it: nlohmann's dump (Grisu2) sometimes gives more digits
    // (0.005734926 came out as 0.0057349260000000004, and cli:sweep failed on it).
    std::array<char, 64> text{};
    const auto [end, error] =
        std::to_chars(text.data(), text.data() + text.size(), value->get<double>());
    if (error == std::errc()) return std::string(text.data(), end);
  }
  return value->dump();
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

std::string failure_reason(const fs::path& stderr_file) {
  std::ifstream in(stderr_file);
  std::string line;
  std::string first;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (first.empty()) first = line;
    if (line.rfind("tsunagi", 0) == 0) return line;
  }
  return first;
}

}  // namespace tsunagi::app::sweep
