// Fixture: the core must not use file times.
#pragma once
#include <chrono>

using Mtime =
    std::chrono::file_clock::time_point;  // expect-violation: uses std::chrono::file_clock
