// Fixture: the core must not read the monotonic clock.
#include <chrono>

long elapsed_ns() {
  auto start =
      std::chrono::steady_clock::time_point{};  // expect-violation: uses std::chrono::steady_clock
  return start.time_since_epoch().count();
}
