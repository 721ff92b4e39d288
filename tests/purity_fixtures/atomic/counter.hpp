// Fixture: the core must not use atomics.
#pragma once
#include <atomic>  // expect-violation: includes <atomic> (atomics)

struct Counter {
  long value = 0;
};
