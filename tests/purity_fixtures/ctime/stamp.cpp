// Fixture: the core must not read the C clock.
#include <ctime>  // expect-violation: includes <ctime> (the C clock)

long stamp() {
  return 0;
}
