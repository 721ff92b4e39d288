// Fixture: the core must not read the C clock (C header spelling).
#pragma once
#include <time.h>  // expect-violation: includes <time.h> (the C clock)

inline long stamp() {
  return 0;
}
