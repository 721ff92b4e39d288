// Fixture: the core must not read the high-resolution clock.
#pragma once
// The expected message must stay on the line it marks:
// clang-format off
#include <chrono>

using Tick = std::chrono::high_resolution_clock::duration;  // expect-violation: uses std::chrono::high_resolution_clock
