// Fixture: the core must not start threads.
#include <thread>  // expect-violation: includes <thread> (threads)

void run_in_background() {}
