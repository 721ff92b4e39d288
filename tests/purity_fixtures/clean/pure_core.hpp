// Fixture: a pure core file. Everything here must pass the purity check.
// Comments may name what the core avoids: no std::chrono::steady_clock::now(), no rand(),
// no #include <thread>; time comes from Input.now.
/* A block comment too: system_clock, getenv, <mutex>, srand(42);
   spread over lines: high_resolution_clock::now() */
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tsunagi/model/io.hpp"

namespace fixture {

using Duration = std::chrono::nanoseconds;  // durations are plain arithmetic

struct Input {
  std::int64_t now = 0;  // the only clock the core sees
};

struct Rng {
  std::uint64_t state = 1;
  std::uint64_t next() { return state = state * 6364136223846793005ULL + 1; }  // own generator
};

inline Duration timeout_after(const Input& in, Duration rtt) {
  const auto deadline = Duration{in.now} + 4 * rtt;
  return std::chrono::duration_cast<std::chrono::microseconds>(deadline);
}

inline int operand(int x) {
  return std::abs(x);
}

inline std::vector<int> random_tree(Rng& rng, int n) {
  std::vector<int> parent(n);
  for (int i = 1; i < n; ++i) parent[i] = static_cast<int>(rng.next() % i);
  parent[0] = -1;
  return parent;
}

inline std::string trace_detail() {
  return "no steady_clock, no rand() here";
}
inline char quote() {
  return '"';
}

}  // namespace fixture
