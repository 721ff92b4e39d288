// Performing the core's commands, in the order it issued them.
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/simix.hpp>

#include "process_actor.hpp"
#include "time_units.hpp"

namespace tsunagi::sim::simgrid {

// A computation is an execution of duration * speed flops on this process's host, so it takes
// `duration` on a core of its own and longer when more computations than cores run there.
// The actor keeps answering pings and receiving frames meanwhile. It is started in kernel
// context: SimGrid then reports its end through Activity::on_completion (completions.hpp) with
// nobody waiting on it, as it does for nothing an actor starts.
void ProcessActor::compute(const ComputeCmd& cmd) {
  if (cmd.duration <= 0) {
    deliver(ComputeDoneInput{cmd.task});
    return;
  }
  const double flops = to_seconds(cmd.duration) * self_.host->get_speed();
  const std::uint64_t id = ++exec_seq_;
  ::simgrid::s4u::ExecPtr exec;
  ::simgrid::kernel::actor::simcall_answered([this, flops, &exec] {
    exec = ::simgrid::s4u::Exec::init();
    exec->set_flops_amount(flops);
    exec->set_host(self_.host);
    exec->start();
  });
  world_.completions().expect_exec(exec.get(), index_, id);
  execs_.emplace(id, RunningExec{std::move(exec), cmd.task});
}

void ProcessActor::on_exec_done(std::uint64_t id) {
  const auto it = execs_.find(id);
  const std::uint64_t task = it->second.task;
  execs_.erase(it);
  deliver(ComputeDoneInput{task});
}

}  // namespace tsunagi::sim::simgrid
