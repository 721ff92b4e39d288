// The half of every backend adapter that does not depend on the world: one process's input
// queue, its exit, the numbering of the connections it accepts, and what it tells the run's
// process table. SimGrid actors, ns-3 process hosts and realnet's Asio processes each hold one
// ProcessDriver and keep only what their world needs (mailboxes, sockets, timers) themselves.
//
// An adapter derives from DrivenProcess<Adapter> (driven_process.hpp), which holds the driver
// and performs what is the same everywhere (trace, report, probes, timers, windows). The adapter's
// public members are the rest of the command set tsunagi::perform_commands calls (connect, send,
// close, arm_timer, compute, exit_process), start_rtt_probe / start_throughput_probe and `TimeNs
// now()`; its exit_process ends with ProcessDriver::exit. docs/backend-contract.md lists the whole
// contract.
//
// C++17-clean: the ns-3 backend includes it.
#pragma once

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/driver/interrupt.hpp"
#include "tsunagi/runner/driver/message_tap.hpp"
#include "tsunagi/runner/driver/process_table.hpp"

namespace tsunagi::runner {

// What makes the process of each role; tests put scripted processes in place of the core's. An
// empty factory runs the core's role (make_node, make_rendezvous, make_relay).
struct ProcessFactories {
  std::function<std::unique_ptr<Process>(Rank rank)> node = nullptr;
  std::function<std::unique_ptr<Process>()> rendezvous = nullptr;
  std::function<std::unique_ptr<Process>(const std::string& host)> relay = nullptr;
  // The process for `row`, by its role.
  std::unique_ptr<Process> make(const ProcessRow& row) const;
};

// The protocol core's roles, all three.
inline ProcessFactories core_roles() {
  return {};
}

// Whether a backend takes received bytes back after the core handled them (C++17: ns-3's
// headers build the ns-3 adapter without concepts).
template <class Adapter, class = void>
struct takes_back_received : std::false_type {};
template <class Adapter>
struct takes_back_received<Adapter, std::void_t<decltype(std::declval<Adapter&>().recycle_received(
                                        std::declval<Bytes&&>()))>> : std::true_type {};

// Whether a backend wants to know when the commands of one core step have all been performed
// (the SimGrid adapter then sends the frames that step wrote to one connection as one message).
template <class Adapter, class = void>
struct hears_step_end : std::false_type {};
template <class Adapter>
struct hears_step_end<Adapter, std::void_t<decltype(std::declval<Adapter&>().step_performed())>>
    : std::true_type {};

class ProcessDriver {
 public:
  ProcessDriver(ProcessTable& table, int index, std::unique_ptr<Process> core)
      : table_(table), index_(index), core_(std::move(core)) {}

  // Hands `event` to the core at adapter.now() and performs the commands it produced. An input
  // that arises while commands are being performed (an outcome known at once, a callback the
  // world makes from inside a socket call) waits and follows in order, so the core is never
  // re-entered. An exception from the core or the adapter ends this process with a failed exit;
  // the run goes on and reports it.
  template <class Adapter>
  void deliver(Adapter& adapter, InputEvent event);

  // The process exits at `now` (its ExitCmd, a fault, an exception, the backend stopping it):
  // the core and its pending inputs are dropped and the table records the exit. Returns false
  // when it had exited already.
  bool exit(TimeNs now, const ExitCmd& exit);
  bool exited() const { return exited_; }

  // Handle for the next connection this process accepts: kAcceptedConnBit | 1, 2, ... in accept
  // order, the same on every backend.
  ConnId next_accepted_conn() { return kAcceptedConnBit | ++accepted_; }

  // Decisions and facts go to the run's observer under this process's label.
  void trace(TimeNs now, const TraceCmd& cmd) {
    table_.note_trace(cmd.kind);
    table_.observer().on_trace(row().label, now, cmd);
  }
  void report(TimeNs now, const ReportCmd& cmd) {
    table_.observer().on_report(row().label, now, cmd);
  }
  // A send or close the core issued, seen before the adapter performs it (TappedCommands):
  // the workload messages a send completes are recorded (message_tap.hpp).
  void tap_send(TimeNs now, const SendCmd& cmd) {
    if (tap_) tap_->sent(now, cmd);
  }
  void tap_close(ConnId conn) {
    if (tap_) tap_->closed(conn);
  }

  StartedInput started_input() const { return table_.started_input(index_); }
  const ProcessRow& row() const { return table_.row(index_); }
  int index() const { return index_; }
  ProcessTable& table() { return table_; }

 private:
  ProcessTable& table_;
  const int index_;
  std::unique_ptr<Process> core_;
  // Inputs waiting for the core, oldest at pending_head_: a vector emptied in place once all
  // are delivered, so a stream of inputs neither allocates nor moves memory (a std::deque
  // allocated a block every few inputs and moved its map: issue 34).
  std::vector<InputEvent> pending_;
  std::size_t pending_head_ = 0;
  bool delivering_ = false;
  bool exited_ = false;
  ConnId accepted_ = 0;
  std::unique_ptr<MessageTap> tap_;  // null unless this node's messages are watched

  // The workload messages an input completes, before the core takes its bytes.
  void tap_input(TimeNs now, const InputEvent& event);
  // Empties pending_ in place (its capacity kept) once every input in it was delivered.
  void clear_delivered();
};

// What tsunagi::perform_commands sees of an adapter whose process watches its messages: sends
// and closes pass the driver's tap first; every command is then the adapter's own.
template <class Adapter>
class TappedCommands {
 public:
  TappedCommands(Adapter& adapter, ProcessDriver& driver) : adapter_(adapter), driver_(driver) {}
  bool stopped() const { return adapter_.stopped(); }
  void send(SendCmd& cmd) {
    driver_.tap_send(adapter_.now(), cmd);
    adapter_.send(cmd);
  }
  void close(ConnId conn, bool refused) {
    driver_.tap_close(conn);
    adapter_.close(conn, refused);
  }
  void connect(ConnectCmd& cmd) { adapter_.connect(cmd); }
  void arm_timer(ArmTimerCmd& cmd) { adapter_.arm_timer(cmd); }
  void probe_rtt(ProbeRttCmd& cmd) { adapter_.probe_rtt(cmd); }
  void probe_throughput(ProbeThroughputCmd& cmd) { adapter_.probe_throughput(cmd); }
  void compute(ComputeCmd& cmd) { adapter_.compute(cmd); }
  void trace(TraceCmd& cmd) { adapter_.trace(cmd); }
  void report(ReportCmd& cmd) { adapter_.report(cmd); }
  void exit_process(ExitCmd& cmd) { adapter_.exit_process(cmd); }
  void set_window(SetWindowCmd& cmd) { adapter_.set_window(cmd); }

 private:
  Adapter& adapter_;
  ProcessDriver& driver_;
};

template <class Adapter>
void ProcessDriver::deliver(Adapter& adapter, InputEvent event) {
  if (exited_) return;
  pending_.push_back(std::move(event));
  if (delivering_) return;
  delivering_ = true;
  try {
    while (pending_head_ < pending_.size() && !exited_) {
      InputEvent next = std::move(pending_[pending_head_++]);
      const TimeNs now = adapter.now();
      if (interrupt_requested()) {  // Ctrl-C: stop here, the outputs say when (interrupt.hpp)
        table_.note_interrupt(now);
        adapter.exit_process(ExitCmd{false, kInterruptedReason});
        break;
      }
      // The tap opens at the process's start: a realnet adapter adds its row to the table only
      // after its driver was made.
      if (std::holds_alternative<StartedInput>(next) && row().role == Role::Node &&
          table_.watching_messages())
        tap_ = std::make_unique<MessageTap>(table_, index_);
      if (tap_) tap_input(now, next);
      Input input{now, std::move(next)};
      core_->handle(input);
      // The core copied what it keeps: a backend that reads into its own buffers takes the
      // received bytes back, so a stream is read without an allocation per read (realnet).
      if constexpr (takes_back_received<Adapter>::value) {
        if (auto* received = std::get_if<ReceivedInput>(&input.event))
          adapter.recycle_received(std::move(received->bytes));
      }
      table_.count_input(now);
      if (tap_) {
        TappedCommands<Adapter> tapped(adapter, *this);
        tsunagi::perform_commands(*core_, tapped);
        if (!table_.watching_messages()) tap_.reset();  // the run's budget is spent
      } else {
        tsunagi::perform_commands(*core_, adapter);
      }
      if constexpr (hears_step_end<Adapter>::value) adapter.step_performed();
    }
  } catch (const std::exception& error) {
    delivering_ = false;
    clear_delivered();
    if (!exited_) adapter.exit_process(ExitCmd{false, std::string("exception: ") + error.what()});
    return;
  }
  delivering_ = false;
  clear_delivered();
}

inline void ProcessDriver::clear_delivered() {
  if (pending_head_ < pending_.size()) return;  // an exception left some: they wait
  pending_.clear();
  pending_head_ = 0;
}

inline void ProcessDriver::tap_input(TimeNs now, const InputEvent& event) {
  if (const auto* received = std::get_if<ReceivedInput>(&event)) {
    tap_->received(now, received->conn, received->bytes, received->filler);
  } else if (const auto* closed = std::get_if<ClosedInput>(&event)) {
    tap_->closed(closed->conn);
  }
}

inline bool ProcessDriver::exit(TimeNs now, const ExitCmd& exit) {
  if (exited_) return false;
  exited_ = true;
  pending_.clear();
  pending_head_ = 0;
  // perform_commands has already moved the command list out of the core: dropping it here,
  // in the middle of that list, is safe, and nothing after the ExitCmd is performed.
  core_.reset();
  table_.record_exit(index_, now, exit);
  return true;
}

// Closes every connection in `conns` (a map keyed by ConnId, ordered or hashed) in id order,
// through `close`, which may erase entries: what an exiting process does to its connections on
// every backend.
template <class ConnMap, class Close>
void close_each(const ConnMap& conns, Close close) {
  std::vector<ConnId> ids;
  ids.reserve(conns.size());
  for (const auto& entry : conns) ids.push_back(entry.first);
  std::sort(ids.begin(), ids.end());
  for (ConnId id : ids) close(id);
}

// A simulator keeps global state (SimGrid's engine, ns-3's defaults and node list), so one run
// per OS process: the second call with the same `run_function` throws std::logic_error.
void claim_world_once(const std::string& run_function);

}  // namespace tsunagi::runner
