// The adapter between one core process and SimGrid: the body of one actor.
//
// Loop: deliver an input (through the shared runner::ProcessDriver: input queue, exit, accepted
// connection ids), perform the commands it produced, then take the next event (a message in the
// inbox, a send or computation finishing, or the earliest timer) and turn it into the next input.
// Events come from the process's completion queue (completions.hpp), filled in the order SimGrid
// ends transfers and computations; an actor with nothing queued sleeps on its doorbell until the
// kernel rings it or its earliest timer is due. An event costs the same whatever the process has
// in flight. Connections, probes and commands live in actor_*.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <simgrid/forward.h>

#include "completions.hpp"
#include "message.hpp"
#include "send_handles.hpp"
#include "slow_start.hpp"
#include "tsunagi/runner/driver/driven_process.hpp"
#include "world.hpp"

namespace tsunagi::sim::simgrid {

class ProcessActor : public runner::DrivenProcess<ProcessActor> {
 public:
  ProcessActor(World& world, int index, std::unique_ptr<Process> core);
  ~ProcessActor();
  ProcessActor(const ProcessActor&) = delete;
  ProcessActor& operator=(const ProcessActor&) = delete;
  // The actor body. Returns when SimGrid kills the actor at the end of the run.
  void run();

  // The commands (tsunagi::perform_commands; DrivenProcess does trace and report) and the
  // clock they run by: actor_commands.cpp, actor_streams.cpp, actor_probes.cpp.
  TimeNs now() const;
  // `window`: the core sized the connection before connecting (the driver kept it).
  void open_connection(const ConnectCmd& cmd, const SetWindowCmd* window);
  bool has_connection(ConnId id) const { return conns_.count(id) != 0; }
  void send(SendCmd& cmd);
  void step_performed();  // the core's step is over: its frames leave (actor_streams.cpp)
  // Simulated connections hold no descriptor: a refused one closes like any other.
  void close(ConnId conn, bool refused = false);
  // The process's timers are the driver's one queue (driven_process.hpp); the actor computes
  // its alarm from next_timer_at() every time it goes to sleep, so a wake-up needs no call.
  void wake_at(TimeNs) {}
  void on_world_timer(const runner::DueTimer& timer);
  void start_rtt_probe(const ProbeRttCmd& cmd);
  void abandon_rtt_probe(std::uint64_t id);  // its deadline passed (the driver's)
  void start_throughput_probe(const ProbeThroughputCmd& cmd);
  void compute(const ComputeCmd& cmd);
  void exit_process(const ExitCmd& exit) { stop(exit, now()); }
  void apply_window(const SetWindowCmd& cmd);

 private:
  // ------------------------------------------------ what the sender of a message needs
  // What to do when a put is over. It keeps its own copy of what the sender needs: the message
  // itself belongs to the receiver once it arrives.
  struct Watch {
    MessageKind message = MessageKind::Stream;
    int target = -1;
    ConnId conn = 0;
    std::uint64_t token = 0;  // Ping, Bulk: probe
    std::uint32_t sample = 0;
  };

  // ------------------------------------------------ connections (actor_streams.cpp)
  enum class ConnState : std::uint8_t {
    Connecting,  // our SYN is out, no SYN-ACK yet
    Open,
    Closing,    // we closed: the queue drains, our FIN goes with its last frames
    Abandoned,  // we gave up connecting; a late SYN-ACK gets a reset
  };
  struct Conn {
    ConnState state = ConnState::Connecting;
    int peer = -1;
    ConnId peer_conn = 0;      // the peer's id for this connection: what our segments carry
    bool sending = false;      // one message in flight per direction keeps the stream ordered
    bool syn_ack_due = false;  // acceptor: the SYN-ACK goes before any frame
    bool fin_due = false;      // closed by us: a FIN follows the queued frames
    bool fin_sent = false;
    bool peer_gone = false;     // FIN/reset received: nothing more to send
    std::uint64_t attempt = 0;  // which connect this is, so a stale time-out is recognised
    int syn_retries = 0;        // WAN: SYNs retransmitted so far (rate-limited routers)
    std::vector<Frame> queue;   // frames waiting for the message in flight
    std::uint64_t window = kInitialWindowBytes;  // our congestion window (simgrid.slow_start)
  };

  // ------------------------------------------------ RTT probes (actor_probes.cpp)
  struct Probe {  // one echo in flight
    int target = -1;
    std::uint32_t sample = 0;  // the core's number of the echo, in its ping and pong
    TimeNs sent_at = 0;
  };

  // The world's timers, in the driver's queue beside the core's (arm_world_timer): SynRetry,
  // SynGiveUp and Refused carry the connection id and Conn::attempt (WAN connects); RouteProbe
  // an echo read off the route (aux: its RTT); Kill is a [[faults]] entry.
  enum class TimerKind : std::uint8_t { SynGiveUp, RouteProbe, SynRetry, Refused, Kill };

  // process_actor.cpp: the loop
  bool fire_due_timer();
  void wait_for_event();
  void sleep_until_rung();
  void on_completed(const Completion& done);
  void stop(const ExitCmd& exit, TimeNs at);

  // actor_inbox.cpp: puts and arrivals
  void on_arrival(const Completion& done);
  void on_put_done(const Completion& done);
  void on_message(Message* message);
  // rate > 0: the message's flow never goes faster (a TCP window, world_windows.cpp).
  void put(int target, Message* message, std::uint64_t size, const Watch& what, double rate = 0);
  bool put_unmodelled(int target, Message* message, std::uint64_t size, const Watch& what);
  std::uint32_t take_put_slot();

  // actor_commands.cpp: computations; the world's timers
  void on_exec_done(std::uint64_t id);
  void arm(TimerKind kind, std::uint64_t id, TimeNs at, std::uint64_t attempt = 0) {
    arm_world_timer(at, static_cast<std::uint32_t>(kind), id, attempt);
  }

  // actor_streams.cpp
  void close_all();
  void pump(ConnId id, Conn& conn);
  // The stream's rate cap with the connection's slow start paid (simgrid.slow_start).
  double with_slow_start(Conn& conn, std::uint64_t bytes, double rate);
  void on_stream_put_done(const Watch& watch);
  void on_syn_put_done(const Watch& watch);
  void on_syn_give_up(ConnId id, std::uint64_t attempt);
  // actor_wan.cpp: connects across cluster routers (policies, SYN rate limits)
  void connect_wan(const ConnectCmd& cmd, int target);
  void send_syn(ConnId id, std::uint64_t attempt);
  void on_refused(ConnId id, std::uint64_t attempt);
  void on_syn(const Message& message);
  void on_syn_ack(const Message& message);
  void on_stream(Message& message);
  void on_reset(const Message& message);
  void on_peer_closed(ConnId id);
  void send_reset(int target, ConnId peer_conn);

  // actor_probes.cpp
  void on_ping(const Message& message);
  void on_pong(const Message& message);
  void on_bulk_put_done(const Watch& watch);

  World& world_;
  const int index_;
  ActorSlot& self_;

  Wakeup& wakeup_;  // this process's completion queue and doorbell (completions.hpp)

  // Puts in flight, by slot, until their end is queued. They are started from handles of
  // `handles_`, so SimGrid files them under a helper actor and nobody waits for them
  // (send_handles.hpp).
  struct PutSlot {
    ::simgrid::s4u::CommPtr comm;
    Watch watch;
    std::uint32_t batch = 0;  // handles_'s batch
  };
  SendHandles handles_;
  static constexpr std::size_t kRouteCache = 16;
  struct CachedRoute {
    int target = -1;  // -1 = none
    SmallMessages::Route route;
  };
  std::array<CachedRoute, kRouteCache> route_cache_;
  std::vector<ConnId> unpumped_;  // connections the core's current step wrote to
  std::vector<PutSlot> puts_;
  std::vector<std::uint32_t> free_puts_;
  // Computations started by the kernel, by a per-process number, until they end
  // (actor_commands.cpp).
  struct RunningExec {
    ::simgrid::s4u::ExecPtr exec;
    std::uint64_t task = 0;
  };
  std::unordered_map<std::uint64_t, RunningExec> execs_;
  std::uint64_t exec_seq_ = 0;

  // The kernel timer that rings the bell at the earliest deadline, while one is set
  // (sleep_until_rung).
  ::simgrid::kernel::timer::Timer* alarm_ = nullptr;

  // SetWindow's send buffers by connection (0 or absent = the site stack's default). Kept apart
  // from conns_: the core sizes an outgoing connection before its ConnectCmd creates the Conn.
  std::map<ConnId, std::uint64_t> send_buffers_;
  // Hashed: looked up on every segment (a tree walk was 4 % of a 2,000-process run); close_all
  // sorts the ids, so closing everything at exit goes in id order.
  std::unordered_map<ConnId, Conn> conns_;
  std::uint64_t connect_attempts_ = 0;
  std::map<std::uint64_t, Probe> probes_;
  struct BulkProbe {
    TimeNs started = 0;
    std::uint64_t bytes = 0;
  };
  std::map<std::uint64_t, BulkProbe> bulk_probes_;  // throughput probes in flight, by id
};

}  // namespace tsunagi::sim::simgrid
