// Fixture: the core must not wait on other threads.
#include <condition_variable>  // expect-violation: includes <condition_variable> (thread waits)

int wait_for_peer() {
  return 0;
}
