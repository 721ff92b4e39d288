// The base of every backend adapter (CRTP): the driver, and what every backend does alike with
// a command. tsunagi::perform_commands sees the adapter's public members only.
//
// Written once here, for every backend (issue 31): the process's one timer queue (the core's
// timers, its echoes' deadlines, the world's own timers; timer_queue.hpp), of which the adapter
// only wakes the driver at the earliest deadline (wake_at); the deadline of every RTT echo; and
// a window set before its connection's connect, kept for that connect.
//
// C++17-clean: the ns-3 backend includes it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/driver/process_driver.hpp"
#include "tsunagi/runner/driver/timer_queue.hpp"

namespace tsunagi::runner {

// What an adapter has: now(); open_connection(cmd, window) (window: the SetWindow the core gave
// the connection before its ConnectCmd, or null), has_connection(id), apply_window(cmd), send,
// close, compute, exit_process (ending with driver_.exit and drop_timers()),
// start_rtt_probe(cmd) (one echo), abandon_rtt_probe(id), start_throughput_probe(cmd),
// wake_at(at) (call fire_due_timers() at `at` or later; a later call replaces an earlier one)
// and on_world_timer(timer) for the world timers it arms (arm_world_timer).
template <class Adapter>
class DrivenProcess {
 public:
  bool stopped() const { return driver_.exited(); }
  void trace(const TraceCmd& cmd) { driver_.trace(adapter().now(), cmd); }
  void report(const ReportCmd& cmd) { driver_.report(adapter().now(), cmd); }
  // Timers are never cancelled: the core ignores the ones it no longer wants.
  void arm_timer(const ArmTimerCmd& cmd) { arm(DueTimer{cmd.at, TimerOwner::Core, 0, cmd.timer}); }
  // Probes are counted for result.json (backend_counts; an RTT probe at its first echo) and
  // kept one per id the same way everywhere: a second probe under an id in flight, or a
  // throughput probe of no bytes, fails at once. The adapter measures the rest
  // (start_rtt_probe: one echo; start_throughput_probe) and ends each with rtt_measured /
  // throughput_measured. An echo's deadline is kept here, in the process's timer queue: at it,
  // an echo still unanswered is reported lost (timed_out) and the adapter forgets it
  // (abandon_rtt_probe); its late answer is dropped.
  void probe_rtt(const ProbeRttCmd& cmd) {
    if (cmd.sample == 0) driver_.table().count("inference.rtt_probes");
    if (rtt_in_flight_.count(cmd.probe) != 0) {
      deliver(RttMeasuredInput{cmd.probe, 0, false});
      return;
    }
    const std::uint64_t echo = ++last_echo_;
    rtt_in_flight_[cmd.probe] = echo;
    if (cmd.deadline > 0) arm(DueTimer{cmd.deadline, TimerOwner::EchoDeadline, 0, cmd.probe, echo});
    adapter().start_rtt_probe(cmd);
  }
  void probe_throughput(const ProbeThroughputCmd& cmd) {
    driver_.table().count("inference.throughput_probes");
    if (cmd.bytes == 0 || !throughput_in_flight_.insert(cmd.probe).second) {
      deliver(ThroughputMeasuredInput{cmd.probe, cmd.bytes, 0, false});
      return;
    }
    adapter().start_throughput_probe(cmd);
  }
  // Socket buffers the core chose for a connection (protocol.window, issue 15): counted for
  // result.json, then sized by the adapter (apply_window) as its world can. The core sizes an
  // outgoing connection before its ConnectCmd (window scaling is agreed in the handshake): a
  // window for a connection the adapter does not have yet waits for that connect.
  void set_window(const SetWindowCmd& cmd) {
    driver_.table().count("windows.set");
    if (adapter().has_connection(cmd.conn))
      adapter().apply_window(cmd);
    else
      pending_windows_[cmd.conn] = cmd;
  }
  void connect(const ConnectCmd& cmd) {
    const auto it = pending_windows_.find(cmd.conn);
    if (it == pending_windows_.end()) return adapter().open_connection(cmd, nullptr);
    const SetWindowCmd window = it->second;
    pending_windows_.erase(it);
    adapter().open_connection(cmd, &window);
  }

 protected:
  DrivenProcess(ProcessTable& table, int index, std::unique_ptr<Process> core)
      : driver_(table, index, std::move(core)) {}
  void deliver(InputEvent event) { driver_.deliver(adapter(), std::move(event)); }
  // The end of an echo the adapter started: its round trip (ignored unless ok), or the time a
  // throughput probe's `bytes` took. A second end of the same probe, or an echo's answer after
  // its deadline, is dropped.
  void rtt_measured(std::uint64_t probe, TimeNs rtt, bool ok) {
    if (rtt_in_flight_.erase(probe) == 0) return;
    deliver(RttMeasuredInput{probe, ok ? rtt : 0, ok});
  }
  void throughput_measured(std::uint64_t probe, std::uint64_t bytes, TimeNs elapsed, bool ok) {
    if (throughput_in_flight_.erase(probe) == 0) return;
    deliver(ThroughputMeasuredInput{probe, bytes, elapsed, ok});
  }
  // A timer of the adapter's world (not the protocol's), in the same queue and order as the
  // core's; due, it goes to adapter().on_world_timer.
  void arm_world_timer(TimeNs at, std::uint32_t kind, std::uint64_t id, std::uint64_t aux = 0) {
    arm(DueTimer{at, TimerOwner::World, kind, id, aux});
  }
  // Fires every timer due now, in deadline and then arming order, and asks the adapter to wake
  // the driver at the next deadline.
  void fire_due_timers() {
    wake_at_ = -1;
    while (!driver_.exited()) {
      const std::optional<DueTimer> due = timers_.pop_due(adapter().now());
      if (!due) break;
      if (due->owner == TimerOwner::Core)
        deliver(TimerFiredInput{due->id});
      else if (due->owner == TimerOwner::EchoDeadline)
        echo_deadline_passed(due->id, due->aux);
      else
        adapter().on_world_timer(*due);
    }
    request_wake();
  }
  // The earliest deadline in the queue; -1 when it is empty or the process has exited.
  TimeNs next_timer_at() const {
    return timers_.empty() || driver_.exited() ? -1 : timers_.next_at();
  }
  // The process exited: nothing of its queue fires any more.
  void drop_timers() {
    timers_.clear();
    wake_at_ = -1;
  }

  ProcessDriver driver_;

 private:
  Adapter& adapter() { return static_cast<Adapter&>(*this); }
  void arm(const DueTimer& timer) {
    if (driver_.exited()) return;
    timers_.arm(timer);
    request_wake();
  }
  // One wake-up per process: requested again only for an earlier deadline.
  void request_wake() {
    const TimeNs next = next_timer_at();
    if (next < 0 || (wake_at_ >= 0 && wake_at_ <= next)) return;
    wake_at_ = next;
    adapter().wake_at(next);
  }
  void echo_deadline_passed(std::uint64_t probe, std::uint64_t echo) {
    const auto it = rtt_in_flight_.find(probe);
    if (it == rtt_in_flight_.end() || it->second != echo) return;  // answered in time
    rtt_in_flight_.erase(it);
    adapter().abandon_rtt_probe(probe);
    deliver(RttMeasuredInput{probe, 0, false, true});
  }

  TimerQueue timers_;
  TimeNs wake_at_ = -1;  // the wake-up the adapter was asked for; -1: none
  std::map<std::uint64_t, std::uint64_t> rtt_in_flight_;  // probe id -> its echo's number
  std::uint64_t last_echo_ = 0;
  std::set<std::uint64_t> throughput_in_flight_;
  std::map<ConnId, SetWindowCmd> pending_windows_;  // set before their connections' connects
};

}  // namespace tsunagi::runner
