// Fixture: the core must not draw from the C library's generator.
#include <cstdlib>

int pick_peer(int n) {
  return std::rand() % n;  // expect-violation: calls rand()
}
