// Performing the core's commands, in the order it issued them.
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>

#include "process_actor.hpp"
#include "time_units.hpp"

namespace tsunagi::sim::simgrid {

// Timers are never cancelled: the core ignores the ones it no longer wants.
void ProcessActor::arm(TimerKind kind, std::uint64_t id, TimeNs at, std::uint64_t attempt) {
  timers_.push(Timer{at, timer_seq_++, kind, id, attempt});
}

// A computation is an execution of duration * speed flops on this process's host, so it takes
// `duration` on a core of its own and longer when more computations than cores run there.
// The actor keeps answering pings and receiving frames meanwhile.
void ProcessActor::compute(const ComputeCmd& cmd) {
  if (cmd.duration <= 0) {
    deliver(ComputeDoneInput{cmd.task});
    return;
  }
  const double flops = to_seconds(cmd.duration) * self_.host->get_speed();
  watch(::simgrid::s4u::this_actor::exec_async(flops),
        Watch{WatchKind::Exec, MessageKind::Stream, -1, 0, cmd.task});
  ++execs_running_;
}

}  // namespace tsunagi::sim::simgrid
