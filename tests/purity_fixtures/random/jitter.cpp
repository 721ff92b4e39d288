// Fixture: the core must not use POSIX random().
#include <stdlib.h>

long jitter_ns() {
  return random() % 1000;  // expect-violation: calls random()
}
