// Fixture: the core must not write to streams; traces are commands.
#include <iostream>  // expect-violation: includes <iostream> (streams and files)

void log_decision() {}
