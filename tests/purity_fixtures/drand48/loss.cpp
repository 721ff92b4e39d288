// Fixture: the core must not use the drand48 family.
#include <stdlib.h>

bool lose_frame(double p) {
  return drand48() < p;  // expect-violation: uses the drand48 family
}
