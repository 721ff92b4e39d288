// The actor loop: deliver, perform, wait. See process_actor.hpp.
#include "process_actor.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include <simgrid/s4u/Activity.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

#include "time_units.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"

namespace tsunagi::sim::simgrid {

ProcessActor::ProcessActor(World& world, int index, std::unique_ptr<Process> core)
    : DrivenProcess(world.table(), index, std::move(core)),
      world_(world),
      index_(index),
      self_(world.slot(index)) {}

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
  if (timers_.empty() || timers_.top().at > now()) return false;
  const Timer timer = timers_.top();
  timers_.pop();
  if (timer.kind == TimerKind::Core)
    deliver(TimerFiredInput{timer.id});
  else if (timer.kind == TimerKind::RouteProbe)
    rtt_measured(timer.id, static_cast<TimeNs>(timer.attempt), true);
  else if (timer.kind == TimerKind::Kill)
    // [[faults]]: the process dies; its connections close for the peers. Intended by the
    // scenario, so not a failure of the run.
    stop(ExitCmd{true, runner::kKilledByFaults}, timer.at);
  else if (timer.kind == TimerKind::SynRetry)
    send_syn(timer.id, timer.attempt);
  else if (timer.kind == TimerKind::Refused)
    on_refused(timer.id, timer.attempt);
  else
    on_syn_give_up(timer.id, timer.attempt);
  return true;
}

void ProcessActor::watch(::simgrid::s4u::ActivityPtr activity, const Watch& what) {
  activities_.push_back(std::move(activity));
  watches_.push_back(what);
}

// Blocks until one watched activity completes or the earliest timer is due. Timers are not
// SimGrid activities: the wait's timeout is the earliest deadline.
void ProcessActor::wait_for_event() {
  post_gets();
  double timeout = -1.0;
  if (!driver_.exited() && !timers_.empty()) {
    const double clock = ::simgrid::s4u::Engine::get_clock();
    timeout = std::max(0.0, to_seconds(timers_.top().at) - clock);
  }
  const auto done = ::simgrid::s4u::Activity::wait_any_for(activities_, timeout);
  if (done < 0) return;  // the timer is due
  const auto i = static_cast<std::size_t>(done);
  const Watch what = watches_[i];
  // Order within the vectors does not matter to SimGrid; swapping keeps removal O(1) and is
  // the same in every run, so which of two simultaneous completions comes first is too.
  activities_[i] = std::move(activities_.back());
  activities_.pop_back();
  watches_[i] = watches_.back();
  watches_.pop_back();
  on_completed(what);
}

void ProcessActor::on_completed(const Watch& what) {
  switch (what.kind) {
    case WatchKind::InboxGet: {
      --gets_posted_;
      const auto slot = static_cast<std::uint32_t>(what.token);
      Message* message = get_slots_[slot];
      free_slots_.push_back(slot);
      ++consumed_;
      on_message(message);
      return;
    }
    case WatchKind::Put:
      // Also after exit: an exited process still flushes its streams, as a kernel does.
      --puts_in_flight_;
      if (what.message == MessageKind::Syn) on_syn_put_done(what);
      if (what.message == MessageKind::SynAck || what.message == MessageKind::Stream)
        on_stream_put_done(what);
      if (what.message == MessageKind::Ping) on_ping_put_done(what);
      if (what.message == MessageKind::Bulk) on_bulk_put_done(what);
      return;
    case WatchKind::Exec:
      --execs_running_;
      deliver(ComputeDoneInput{what.token});
      return;
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
  timers_ = {};
  probes_.clear();
  // A daemon does not keep the run alive: SimGrid ends it when only daemons are left.
  ::simgrid::s4u::Actor::self()->daemonize();
}

}  // namespace tsunagi::sim::simgrid
