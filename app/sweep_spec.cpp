// `tsunagi sweep`'s grid: SPEC parsing, cartesian product, point directory names.
#include "sweep_spec.hpp"

#include <cstdint>
#include <set>

namespace tsunagi::app::sweep {

namespace {

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return std::string(text.substr(first, last - first + 1));
}

[[noreturn]] void fail(const std::string& key, const std::string& spec, const std::string& what) {
  throw SpecError("--set " + key + "=" + spec + ": " + what);
}

void append_range(std::string_view piece, const std::string& key, const std::string& spec,
                  std::vector<std::string>& values) {
  try {
    for (std::string& value : sweep::expand_range(piece)) values.push_back(std::move(value));
  } catch (const RangeError& error) {
    fail(key, spec, error.what());
  }
}

}  // namespace

std::vector<std::string> split_top_level(std::string_view spec) {
  std::vector<std::string> pieces;
  int depth = 0;
  char quote = 0;
  bool escaped = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    const char c = spec[i];
    if (quote != 0) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\' && quote == '"') {
        escaped = true;  // TOML basic strings escape; literal strings ('...') do not
      } else if (c == quote) {
        quote = 0;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ',' && depth == 0) {
      pieces.emplace_back(spec.substr(start, i - start));
      start = i + 1;
    }
  }
  pieces.emplace_back(spec.substr(start));
  return pieces;
}

Axis parse_set(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw SpecError("--set " + text +
                    ": expected KEY=SPEC, e.g. protocol.shortcut_capacity=0..16 or "
                    "placement.processes=8,16");
  }
  Axis axis;
  axis.key = text.substr(0, equals);
  axis.spec = text.substr(equals + 1);
  const std::vector<std::string> pieces = split_top_level(axis.spec);
  if (pieces.size() == 1) {
    // One value: passed through exactly as written, unless it is a range.
    const std::string piece = trim(axis.spec);
    if (looks_like_range(piece)) {
      append_range(piece, axis.key, axis.spec, axis.values);
    } else {
      axis.values.push_back(axis.spec);
    }
    return axis;
  }
  std::set<std::string> seen;
  for (const std::string& raw : pieces) {
    const std::string piece = trim(raw);
    if (piece.empty()) {
      fail(axis.key, axis.spec,
           "empty item in the comma list — give values as a,b,c; a value that holds a comma "
           "must be quoted (\"a,b\") or be a TOML array ([1,2])");
    }
    std::vector<std::string> values;
    if (looks_like_range(piece)) {
      append_range(piece, axis.key, axis.spec, values);
    } else {
      values.push_back(piece);
    }
    for (std::string& value : values) {
      if (!seen.insert(value).second) {
        fail(axis.key, axis.spec, "value '" + value + "' is given twice — list each value once");
      }
      axis.values.push_back(std::move(value));
    }
    if (axis.values.size() > kMaxPoints) {
      fail(axis.key, axis.spec,
           "more than " + std::to_string(kMaxPoints) + " values — a sweep runs at most that");
    }
  }
  return axis;
}

std::string fnv1a_hex(std::string_view bytes) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i) {
    text[static_cast<std::size_t>(i)] = kHex[hash & 0xf];
    hash >>= 4;
  }
  return text;
}

std::string point_dir_name(const std::vector<std::string>& keys,
                           const std::vector<std::string>& values) {
  if (keys.empty()) return "point";
  std::string exact;  // the unsanitised name, hashed when the name had to change
  std::string name;
  bool changed = false;
  const auto append = [&](const std::string& text) {
    for (const char c : text) {
      const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                        (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '+' || c == '-';
      name += keep ? c : '_';
      changed = changed || !keep;
    }
  };
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) name += ',';
    append(keys[i]);
    name += '=';
    append(values[i]);
    exact += keys[i] + '=' + values[i] + '\n';
  }
  constexpr std::size_t kMaxNameLength = 120;
  if (name.size() > kMaxNameLength) {
    name.resize(kMaxNameLength);
    changed = true;
  }
  if (changed) name += "~" + fnv1a_hex(exact).substr(0, 8);
  return name;
}

Grid make_grid(const std::vector<Axis>& axes) {
  // A key given twice is ambiguous once one of them is swept (which value wins at a point?).
  for (std::size_t i = 0; i < axes.size(); ++i) {
    for (std::size_t j = i + 1; j < axes.size(); ++j) {
      if (axes[i].key == axes[j].key && (axes[i].values.size() > 1 || axes[j].values.size() > 1)) {
        throw SpecError("--set " + axes[j].key + "=" + axes[j].spec + ": the key " + axes[j].key +
                        " is also set by --set " + axes[i].key + "=" + axes[i].spec +
                        " — give a swept key once, with all its values");
      }
    }
  }
  Grid grid;
  std::vector<const Axis*> swept;
  std::size_t total = 1;
  for (const Axis& axis : axes) {
    if (axis.values.size() < 2) continue;
    swept.push_back(&axis);
    grid.keys.push_back(axis.key);
    if (total > kMaxPoints / axis.values.size()) {
      throw SpecError("--set " + axis.key + "=" + axis.spec + ": the grid grows past " +
                      std::to_string(kMaxPoints) +
                      " points (the product of the value counts of every swept key) — sweep "
                      "fewer values");
    }
    total *= axis.values.size();
  }
  grid.points.reserve(total);
  std::vector<std::size_t> index(swept.size(), 0);  // mixed radix, the last key fastest
  for (std::size_t n = 0; n < total; ++n) {
    Point point;
    for (std::size_t s = 0; s < swept.size(); ++s)
      point.values.push_back(swept[s]->values[index[s]]);
    std::size_t s = 0;
    for (const Axis& axis : axes) {
      const bool is_swept = axis.values.size() > 1;
      const std::string& value = is_swept ? point.values[s++] : axis.values.front();
      point.overrides.push_back(axis.key + "=" + value);
    }
    for (std::size_t k = 0; k < grid.keys.size(); ++k) {
      point.label += (k == 0 ? "" : " ") + grid.keys[k] + "=" + point.values[k];
    }
    if (point.label.empty()) point.label = "(the scenario as given)";
    point.dir_name = point_dir_name(grid.keys, point.values);
    grid.points.push_back(std::move(point));
    for (std::size_t k = swept.size(); k-- > 0;) {
      if (++index[k] < swept[k]->values.size()) break;
      index[k] = 0;
    }
  }
  return grid;
}

}  // namespace tsunagi::app::sweep
