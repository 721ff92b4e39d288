// Fixture: the core must not lock.
#pragma once
#include <mutex>  // expect-violation: includes <mutex> (locks)

struct Table {
  int entries = 0;
};
