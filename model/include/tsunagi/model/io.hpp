// The boundary between the pure protocol core and a backend (docs/architecture.md, "sans-I/O").
//
// A backend feeds a role (Node or Rendezvous) one Input at a time, each carrying `now`, then
// drains the role's Commands and performs them; their outcomes come back as further Inputs.
// Commands are plain data. The core never calls into the backend.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

using Bytes = std::vector<std::uint8_t>;

// The inputs and commands stay one line each, so the whole boundary reads on one page.
// clang-format off
// ---------------------------------------------------------------- inputs (world -> process)

struct StartedInput {
  Rank rank = kNoRank;            // kNoRank for the rendezvous
  Endpoint self;                  // where others can connect to this process
  Endpoint rendezvous;            // where the rendezvous listens (nodes only)
  std::string host;               // label of the machine this process runs on
  // Label of the LAN (site, cluster) this process runs in, "" when the run has one LAN. Like the
  // host label it is deployment knowledge a process is configured with (SSOCK reads it from its
  // set-up), not measured truth: relays and the relay plan use it to tell LAN from WAN.
  std::string site;
  std::shared_ptr<const ProtocolConfig> config;
  // The run's secret: every connection proves it before any other frame counts (handshake.hpp).
  // "" = no authentication, for unit tests that script frames by hand; every backend passes one.
  std::string secret;
  std::uint64_t nonce_seed = 0;   // makes this process's nonces its own
};
struct ConnectedInput { ConnId conn = 0; };
struct AcceptedInput { ConnId conn = 0; };
enum class ConnectFailure { Refused, TimedOut, Unreachable };
struct ConnectFailedInput { ConnId conn = 0; ConnectFailure reason = ConnectFailure::Refused; };
// Bytes arrived on a connection, in stream order. `filler` counts payload bytes the backend
// only models (simulators do not move them); stream backends deliver those as real bytes.
struct ReceivedInput { ConnId conn = 0; Bytes bytes; std::uint64_t filler = 0; };
struct ClosedInput { ConnId conn = 0; };
struct TimerFiredInput { std::uint64_t timer = 0; };
// One echo's outcome (ProbeRttCmd): its round trip; or ok = false: `timed_out` when its deadline
// passed unanswered, else the target is unknown or gone. The core's sampler decides what follows.
struct RttMeasuredInput { std::uint64_t probe = 0; TimeNs rtt = 0; bool ok = true; bool timed_out = false; };
struct ComputeDoneInput { std::uint64_t task = 0; };
// A throughput probe finished: `bytes` reached the target in `elapsed` (from the start of the
// transfer to the arrival of its last byte). ok = false: the target was unknown or gone.
struct ThroughputMeasuredInput {
  std::uint64_t probe = 0;
  std::uint64_t bytes = 0;
  TimeNs elapsed = 0;
  bool ok = true;
};

using InputEvent = std::variant<StartedInput, ConnectedInput, AcceptedInput, ConnectFailedInput,
                                ReceivedInput, ClosedInput, TimerFiredInput, RttMeasuredInput,
                                ComputeDoneInput, ThroughputMeasuredInput>;

struct Input {
  TimeNs now = 0;
  InputEvent event;
};

// ---------------------------------------------------------------- commands (process -> world)

struct ConnectCmd { ConnId conn = 0; Endpoint to; };
// Send bytes in order on a connection; `filler` more payload bytes follow that carry no
// information (a simulator only charges their size; a stream backend sends zeros).
struct SendCmd { ConnId conn = 0; Bytes bytes; std::uint64_t filler = 0; };
// `refused`: the peer never proved the run's secret (handshake.hpp). A backend frees such a
// connection at once; others close in order (the peer reads everything sent before the close).
struct CloseCmd { ConnId conn = 0; bool refused = false; };
struct ArmTimerCmd { std::uint64_t timer = 0; TimeNs at = 0; };
// One echo of `bytes` to the process at `to`, outside every connection: RttMeasured with its
// round trip, or timed out at `deadline` (0 = none). How many, how long and what after a loss are
// the core's decisions (issue 31); `sample` numbers the echoes of one probe (0 first).
struct ProbeRttCmd { std::uint64_t probe = 0; Endpoint to; std::uint32_t bytes = 64; TimeNs deadline = 0; std::uint32_t sample = 0; };
// A bulk transfer of `bytes` to the process at `to`, outside every connection the core holds
// (like iperf). Probes started together really share the links they cross; that sharing is
// what tree inference measures (paper 000 §2.2).
// `window`: socket buffers of the probe's connection (0 = the host stack's own, as iperf without -w).
struct ProbeThroughputCmd { std::uint64_t probe = 0; Endpoint to; std::uint64_t bytes = 0; std::uint64_t window = 0; };
// Size the socket buffers (SO_SNDBUF, SO_RCVBUF) of a connection: issued before its ConnectCmd
// for an outgoing one (window scaling is agreed in the handshake), at any time for an accepted
// one; 0 = leave that buffer at the host stack's default (issue 15, docs/wan-windows.md).
struct SetWindowCmd { ConnId conn = 0; std::uint64_t send_buffer = 0; std::uint64_t recv_buffer = 0; };
struct ComputeCmd { std::uint64_t task = 0; TimeNs duration = 0; };
// A protocol decision. Decisions never carry wall-clock time so traces can be diffed.
struct TraceCmd { std::string kind; nlohmann::json detail; };
// A fact for result.json (counters, workload outcome), not a decision.
struct ReportCmd { std::string key; nlohmann::json value; };
// The process has finished its part of the run; the backend may stop it. `released`: the
// rendezvous has released everyone (the run is over for all), so no peer needs to see this
// process's connections close; a simulator may drop them without a closing handshake.
struct ExitCmd { bool ok = true; std::string reason; bool released = false; };

using Command = std::variant<ConnectCmd, SendCmd, CloseCmd, ArmTimerCmd, ProbeRttCmd, ComputeCmd,
                             TraceCmd, ReportCmd, ExitCmd, ProbeThroughputCmd, SetWindowCmd>;

// What every role implements.
class Process {
 public:
  virtual ~Process() = default;
  // The core may take what the input carries (a ReceivedInput's bytes moved into a SendCmd
  // forward them without a copy); the backend reuses only what is still there afterwards.
  virtual void handle(Input& input) = 0;
  // Moves out the commands produced so far, in the order they must be performed.
  std::vector<Command> drain_commands() { return std::exchange(commands_, {}); }

 protected:
  void emit(Command command) { commands_.push_back(std::move(command)); }

 private:
  std::vector<Command> commands_;
};

// How every backend performs a core's commands: in the order they were issued, and none after
// the one that stopped the process (its ExitCmd). `Backend` has one member per command kind —
// connect, send, close, arm_timer, probe_rtt, probe_throughput, compute, trace, report,
// exit_process, set_window — and `stopped()`; a command kind a backend does not handle fails to compile.
template <class Backend>
void perform_commands(Process& core, Backend& backend) {
  for (Command& command : core.drain_commands()) {
    std::visit(
        [&backend](auto& cmd) {
          using T = std::decay_t<decltype(cmd)>;
          if constexpr (std::is_same_v<T, ConnectCmd>) backend.connect(cmd);
          else if constexpr (std::is_same_v<T, SendCmd>) backend.send(cmd);
          else if constexpr (std::is_same_v<T, CloseCmd>) backend.close(cmd.conn, cmd.refused);
          else if constexpr (std::is_same_v<T, ArmTimerCmd>) backend.arm_timer(cmd);
          else if constexpr (std::is_same_v<T, ProbeRttCmd>) backend.probe_rtt(cmd);
          else if constexpr (std::is_same_v<T, ProbeThroughputCmd>) backend.probe_throughput(cmd);
          else if constexpr (std::is_same_v<T, ComputeCmd>) backend.compute(cmd);
          else if constexpr (std::is_same_v<T, TraceCmd>) backend.trace(cmd);
          else if constexpr (std::is_same_v<T, ReportCmd>) backend.report(cmd);
          else if constexpr (std::is_same_v<T, ExitCmd>) backend.exit_process(cmd);
          else if constexpr (std::is_same_v<T, SetWindowCmd>) backend.set_window(cmd);
          else static_assert(sizeof(T) == 0, "a command kind is not performed");
        },
        command);
    if (backend.stopped()) return;
  }
}

// clang-format on

}  // namespace tsunagi
