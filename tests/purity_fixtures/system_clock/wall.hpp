// Fixture: the core must not read wall-clock time.
#pragma once
#include <chrono>

using Wall = std::chrono::system_clock;  // expect-violation: uses std::chrono::system_clock
