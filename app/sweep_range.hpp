// `tsunagi sweep`'s ranges: A..B, A..B:STEP (integers or decimals) and A..B:xR (geometric),
// expanded to the text of each value (docs/cli.md, "tsunagi sweep", SPEC).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tsunagi::app::sweep {

// The most values one range (and a whole grid) may have: a typo such as 0..1000000 or
// 0..1:1e-9 is an error, not a month of runs.
inline constexpr std::size_t kMaxPoints = 100000;

// A bad range; what() is "bad range 'PIECE': what is wrong — how to fix it" (the caller adds
// the --set KEY=SPEC it came from).
class RangeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A piece is meant as a range when it starts like a number and holds "..": "0..16", "-4..4:2",
// "0.1..0.5:0.1", also "0..x" (then an error, not the string "0..x"). "../file", "[1,2]",
// "\"a..b\"" are not.
bool looks_like_range(std::string_view piece);

// The values of a range, in increasing order:
//   A..B       integers A, A+1, ..., B
//   A..B:S     A + k*S for k = 0, 1, ... up to B (B included when within S/1e6 of a value);
//              integers when A, B and S are, else decimals printed without float noise (0.3,
//              not 0.30000000000000004)
//   A..B:xR    A, A*R, A*R^2, ... up to B (B included when within R^1e-9 of a value), with
//              0 < A <= B and R > 1
// Throws RangeError.
std::vector<std::string> expand_range(std::string_view piece);

// A decimal as a TOML value and a directory name: 15 significant digits, trailing zeros dropped
// ("0.3", "1e-07", "2"), which drops the noise of the last bits of a double.
std::string format_decimal(double value);

}  // namespace tsunagi::app::sweep
