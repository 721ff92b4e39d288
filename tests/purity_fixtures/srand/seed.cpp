// Fixture: the core must not seed the C library's generator.
#include <cstdlib>

void seed(unsigned s) {
  srand(s);  // expect-violation: calls srand()
}
