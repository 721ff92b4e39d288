// For backends whose simulator takes SIGINT over (interrupt.hpp says what the handler does).
#pragma once

#include "tsunagi/runner/driver/interrupt.hpp"

namespace tsunagi::runner {

// Installs the handler again if install_interrupt_handler() ran before: SimGrid sets its own
// SIGINT handler (it exits at once, outputs unwritten) when its engine starts, so its backend
// calls this just before running.
void reclaim_interrupt_handler();

}  // namespace tsunagi::runner
