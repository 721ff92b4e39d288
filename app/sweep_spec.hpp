// `tsunagi sweep`'s grid: `--set KEY=SPEC` values (one value, a range A..B[:STEP] or A..B:xR, or a
// comma list), their cartesian product, and the directory name of each point (docs/cli.md,
// "tsunagi sweep").
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sweep_range.hpp"

namespace tsunagi::app::sweep {

// A bad KEY=SPEC; what() is "--set KEY=SPEC: what is wrong — how to fix it".
class SpecError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One `--set KEY=SPEC`, expanded: one value = the same override for every point.
struct Axis {
  std::string key;
  std::string spec;  // as given, for messages
  std::vector<std::string> values;
};

// Splits at the commas outside brackets [], braces {} and quotes "" '' (TOML arrays, inline
// tables and strings stay whole). One piece, untouched, when there is no such comma.
std::vector<std::string> split_top_level(std::string_view spec);

// "KEY=SPEC" → the key and its values: a range (A..B, A..B:STEP, A..B:xR; sweep_range.hpp), a
// comma list whose items may be ranges, or else the value unchanged. Throws SpecError naming the
// key.
Axis parse_set(const std::string& text);

struct Point {
  std::vector<std::string> values;     // one per swept key, in Grid::keys order
  std::vector<std::string> overrides;  // "KEY=VALUE" for every --set, in the order given
  std::string label;                   // "k1=v1 k2=v2" (swept keys only), for messages
  std::string dir_name;                // directory under --out
};

struct Grid {
  std::vector<std::string> keys;  // keys with more than one value, in the order given
  std::vector<Point> points;      // cartesian product, the last key varying fastest
};

// Throws SpecError for a key given twice (when one of them has several values) or a grid over
// kMaxPoints points.
Grid make_grid(const std::vector<Axis>& axes);

// Directory name of a point: "k1=v1,k2=v2" over the swept keys ("point" when none). Characters
// other than letters, digits and ._+- become '_', and then (or when the name is longer than
// 120 characters) "~" and a hash of the exact values are appended, so names stay distinct.
std::string point_dir_name(const std::vector<std::string>& keys,
                           const std::vector<std::string>& values);

// 64-bit FNV-1a of the bytes, as 16 hex digits.
std::string fnv1a_hex(std::string_view bytes);

}  // namespace tsunagi::app::sweep
