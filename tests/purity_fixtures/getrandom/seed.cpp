// Fixture: the core must not ask the kernel for random bytes.
#include <sys/random.h>  // expect-violation: includes <sys/random.h> (getrandom)

unsigned os_seed() {
  unsigned seed = 0;
  getrandom(&seed, sizeof seed, 0);  // expect-violation: calls getrandom()
  return seed;
}
