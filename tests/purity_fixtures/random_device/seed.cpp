// Fixture: the core must not seed itself from the OS.
#include <random>  // expect-violation: includes <random> (random engines and random_device)

unsigned os_seed() {
  std::random_device device;  // expect-violation: uses std::random_device
  return device();
}
