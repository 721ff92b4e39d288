// The program's version, written into result.json and printed by `tsunagi --version`.
// Keep in step with project(tsunagi VERSION ...) in the top-level CMakeLists.txt.
#pragma once

namespace tsunagi::runner {

inline constexpr const char* kTsunagiVersion = "0.1.0";

}  // namespace tsunagi::runner
