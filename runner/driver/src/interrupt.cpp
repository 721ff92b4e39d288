// SIGINT for simulated runs. See interrupt.hpp.
#include "tsunagi/runner/driver/interrupt_handler.hpp"

#include <atomic>
#include <csignal>

namespace tsunagi::runner {
namespace {

// Lock-free, so the handler may set it (async-signal-safe).
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void on_sigint(int) {
  g_interrupted.store(true);
  // The next Ctrl-C is not asked twice: it ends the program.
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace

// Whether the program asked for the handler (`tsunagi run`; not realnet's daemons).
std::atomic<bool> g_installed{false};

void install_interrupt_handler() {
  g_installed.store(true);
  std::signal(SIGINT, on_sigint);
}

void reclaim_interrupt_handler() {
  if (g_installed.load() && !g_interrupted.load()) std::signal(SIGINT, on_sigint);
}

bool interrupt_requested() {
  return g_interrupted.load(std::memory_order_relaxed);
}

void request_interrupt() {
  g_interrupted.store(true);
}

void clear_interrupt() {
  g_interrupted.store(false);
}

}  // namespace tsunagi::runner
