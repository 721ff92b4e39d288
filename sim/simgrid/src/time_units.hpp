// SimGrid counts time in seconds (double); the core counts integer nanoseconds.
#pragma once

#include <cmath>

#include "tsunagi/model/types.hpp"

namespace tsunagi::sim::simgrid {

inline TimeNs to_ns(double seconds) {
  return static_cast<TimeNs>(std::llround(seconds * 1e9));
}

inline double to_seconds(TimeNs ns) {
  return static_cast<double>(ns) * 1e-9;
}

}  // namespace tsunagi::sim::simgrid
