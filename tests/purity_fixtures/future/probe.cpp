// Fixture: the core must not run asynchronous tasks.
#include <future>  // expect-violation: includes <future> (asynchronous tasks)

int probe() {
  return 0;
}
