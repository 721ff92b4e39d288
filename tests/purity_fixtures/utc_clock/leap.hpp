// Fixture: the core must not read UTC time.
#pragma once
#include <chrono>

using Utc = std::chrono::utc_clock::time_point;  // expect-violation: uses std::chrono::utc_clock
