// Fixture: the core must not call any clock's now(), whatever the clock is called.
#pragma once

template <class Clock>
auto stamp() {
  return Clock::now();  // expect-violation: reads a clock (::now())
}
