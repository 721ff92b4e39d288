// Fixture: the core must not read its configuration from the environment.
#include <cstdlib>

int shortcut_capacity() {
  const char* value =
      std::getenv("TSUNAGI_CAPACITY");  // expect-violation: reads the environment (getenv)
  return value ? std::atoi(value) : 0;
}
