// The actor loop: deliver, perform, wait. See process_actor.hpp.
#include "process_actor.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>  // ~ProcessActor releases ExecPtrs
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "time_units.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"

namespace tsunagi::sim::simgrid {

ProcessActor::ProcessActor(World& world, int index, std::unique_ptr<Process> core)
    : DrivenProcess(world.table(), index, std::move(core)),
      world_(world),
      index_(index),
      self_(world.slot(index)),
      wakeup_(world.completions().of(index)),
      handles_("process " + std::to_string(index)) {}

// A kernel timer outlives the run's engine loop: the alarm still set at the end goes with its
// actor.
ProcessActor::~ProcessActor() {
  if (alarm_ != nullptr) alarm_->remove();
}

void ProcessActor::run() {
  try {
    if (const TimeNs kill = driver_.row().kill_at; kill >= 0) arm(TimerKind::Kill, 0, kill);
    deliver(driver_.started_input());
    while (!driver_.exited())
      if (!fire_due_timer()) wait_for_event();
  } catch (const std::exception& error) {
    // This adapter broke outside a delivery (the driver catches what breaks inside one): the
    // process dies, the run goes on and reports it. SimGrid's ForcefulKillException is no
    // std::exception, so killing still unwinds.
    stop(ExitCmd{false, std::string("exception: ") + error.what()}, now());
  }
  // An exited process drains its inbox, so what others still send it completes, until SimGrid
  // ends the run (it kills daemon actors once no other actor is left).
  for (;;) wait_for_event();
}

TimeNs ProcessActor::now() const {
  return to_ns(::simgrid::s4u::Engine::get_clock());
}

bool ProcessActor::fire_due_timer() {
  const TimeNs next = next_timer_at();
  if (next < 0 || next > now()) return false;
  fire_due_timers();
  return true;
}

void ProcessActor::on_world_timer(const runner::DueTimer& timer) {
  switch (static_cast<TimerKind>(timer.kind)) {
    case TimerKind::RouteProbe:
      return rtt_measured(timer.id, static_cast<TimeNs>(timer.aux), true);
    case TimerKind::Kill:
      // [[faults]]: the process dies; its connections close for the peers. Intended by the
      // scenario, so not a failure of the run.
      return stop(ExitCmd{true, runner::kKilledByFaults}, timer.at);
    case TimerKind::SynRetry:
      return send_syn(timer.id, timer.aux);
    case TimerKind::Refused:
      return on_refused(timer.id, timer.aux);
    case TimerKind::SynGiveUp:
      return on_syn_give_up(timer.id, timer.aux);
  }
}

// Takes the next completed event, sleeping until there is one or the earliest timer is due.
// After a wake the first event is handled before due timers (run() checks them between
// events), as when the actor waited on the activities themselves.
void ProcessActor::wait_for_event() {
  if (wakeup_.ready.empty()) {
    sleep_until_rung();
    if (wakeup_.ready.empty()) return;  // the timer is due
  }
  const Completion done = std::move(wakeup_.ready.front());
  wakeup_.ready.pop_front();
  on_completed(done);
}

// Sleeps on the doorbell. Timers are not SimGrid activities: a kernel timer at the earliest
// deadline rings the bell (the date computed as SimGrid's own wait with a time-out does). It
// stays set across wakes while that deadline stays the earliest: setting and removing one at
// every sleep was a heap insert and erase per message. One that fires while the actor is awake
// rings nobody; the actor finds its timer due before it sleeps again (run()).
void ProcessActor::sleep_until_rung() {
  double alarm_at = -1;
  if (const TimeNs next = next_timer_at(); next >= 0) {
    const double clock = ::simgrid::s4u::Engine::get_clock();
    alarm_at = clock + std::max(0.0, to_seconds(next) - clock);
  }
  if (alarm_ != nullptr && alarm_->get_date() != alarm_at) {
    alarm_->remove();
    alarm_ = nullptr;
  }
  if (alarm_ == nullptr && alarm_at >= 0) {
    alarm_ = ::simgrid::kernel::timer::Timer::set(alarm_at, [this] {
      alarm_ = nullptr;  // SimGrid frees a timer once it has fired
      world_.completions().ring(index_);
    });
  }
  wakeup_.sleeping = true;
  wakeup_.bell->acquire();
}

void ProcessActor::on_completed(const Completion& done) {
  switch (done.kind) {
    case CompletionKind::Arrival:
      return on_arrival(done);
    case CompletionKind::PutDone:
      // Also after exit: an exited process still flushes its streams, as a kernel does.
      return on_put_done(done);
    case CompletionKind::ExecDone:
      return on_exec_done(done.task);
  }
}

void ProcessActor::stop(const ExitCmd& exit, TimeNs at) {
  if (!driver_.exit(at, exit)) return;
  // A FIN nobody needs would only be one more flow for the solver (millions at 10,000
  // processes, docs/simgrid.md): connections to processes that have exited are dropped, and all
  // of them once the rendezvous has released everyone. Frames still queued go out first; other
  // live peers get their FIN.
  std::erase_if(conns_, [this, &exit](const auto& entry) {
    return entry.second.queue.empty() && (exit.released || world_.exited(entry.second.peer));
  });
  close_all();
  drop_timers();
  probes_.clear();
  // A daemon does not keep the run alive: SimGrid ends it when only daemons are left.
  ::simgrid::s4u::Actor::self()->daemonize();
}

}  // namespace tsunagi::sim::simgrid
