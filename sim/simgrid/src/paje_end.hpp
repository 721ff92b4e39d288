// --paje: the trace ends when the run does (issue 33). SimGrid closes every container when its
// clock stops, and the clock runs on after the last process exited until the last pending
// timer (a 3 s connect timeout) has fired: a 6.8 ms run left containers open until 3 s. The
// run's end is the last exit (RunSummary::end), so the finished file is rewritten with every
// later time brought back to it: nothing happens in between but timers nobody waits for.
#pragma once

#include <string>

#include "tsunagi/model/io.hpp"

namespace tsunagi::sim::simgrid {

// Rewrites the Paje file `file` in place: every event time after `end` becomes `end`. Events
// stay in order (times only ever move down to `end`, which is not before any earlier event).
// Throws std::runtime_error when the file cannot be read or written.
void close_paje_at(const std::string& file, TimeNs end);

}  // namespace tsunagi::sim::simgrid
