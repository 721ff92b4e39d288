// Ctrl-C during a simulated run (issue 33). The first SIGINT only sets a flag: every process
// stops at its next input (ProcessDriver::deliver), the simulation runs out, and the run's
// outputs are written as usual — a partial trace.jsonl and a result.json whose run section
// says when it was interrupted, never ok — and `tsunagi run` exits 130 (128 + SIGINT, as a
// shell reports it). A second SIGINT ends the program at once (the default action again).
#pragma once

#include "tsunagi/model/types.hpp"

namespace tsunagi::runner {

// Installs the SIGINT handler (again after a second signal restored the default).
void install_interrupt_handler();
bool interrupt_requested();
// What the handler does, for tests; and its undoing.
void request_interrupt();
void clear_interrupt();

inline constexpr const char* kInterruptedReason = "interrupted (SIGINT)";

}  // namespace tsunagi::runner
