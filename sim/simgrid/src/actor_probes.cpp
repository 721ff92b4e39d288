// RTT echoes: one ping/pong exchange with the target's inbox per ProbeRttCmd. How many, how
// long to wait for one and what to do after a loss are the core's (rtt_sampler.hpp); the
// driver reports an echo unanswered at its deadline.
//
// The target's adapter echoes a ping by itself, without waking its core (like a kernel answering
// ICMP or a UDP echo), so a busy or computing process answers as fast as an idle one. The RTT
// is measured from putting the ping to receiving the pong: both transfers, with whatever else
// shares their links at the time.
#include "process_actor.hpp"

namespace tsunagi::sim::simgrid {
namespace {

// Receive buffer of a throughput probe's sink: an iperf server with a large window (as ns-3's).
constexpr std::uint64_t kProbeSinkBuffer = std::uint64_t{64} << 20;

}  // namespace

// A process that has exited answers no ping, as on ns-3 and realnet: the echo is lost and its
// deadline says so. Only an endpoint of no process of the run fails at once.
void ProcessActor::start_rtt_probe(const ProbeRttCmd& cmd) {
  const int target = world_.find(cmd.to);
  if (target < 0) return rtt_measured(cmd.probe, 0, false);
  if (world_.exited(target)) return;
  if (world_.route_probes()) {
    // Read off the route; the echo still spends one round trip of simulated time.
    const TimeNs rtt = world_.route_rtt(index_, target, cmd.bytes);
    arm(TimerKind::RouteProbe, cmd.probe, now() + rtt, static_cast<std::uint64_t>(rtt));
    return;
  }
  Probe& probe = probes_[cmd.probe];
  probe.target = target;
  probe.sample = cmd.sample;
  probe.sent_at = now();
  Message* ping = world_.pool().take();
  ping->kind = MessageKind::Ping;
  ping->token = cmd.probe;
  ping->sample = cmd.sample;
  ping->echo_bytes = cmd.bytes;
  put(target, ping, cmd.bytes, Watch{MessageKind::Ping, target, 0, cmd.probe, cmd.sample});
}

void ProcessActor::abandon_rtt_probe(std::uint64_t id) {
  probes_.erase(id);
}

void ProcessActor::on_ping(const Message& message) {
  if (driver_.exited()) return;  // nobody answers: the ping is lost
  Message* pong = world_.pool().take();
  pong->kind = MessageKind::Pong;
  pong->token = message.token;
  pong->sample = message.sample;
  put(message.from, pong, message.echo_bytes, Watch{MessageKind::Pong, message.from});
}

void ProcessActor::on_pong(const Message& message) {
  auto it = probes_.find(message.token);
  if (it == probes_.end()) return;
  const Probe probe = it->second;
  // A pong of an earlier probe with the same id.
  if (probe.target != message.from || probe.sample != message.sample) return;
  probes_.erase(it);
  rtt_measured(message.token, now() - probe.sent_at, true);
}

// A throughput probe is one message of `bytes` to the target's inbox: a flow that shares every
// link on its route with whatever else crosses it, exactly what tree inference wants to see.
// It completes when its last byte has arrived.
void ProcessActor::start_throughput_probe(const ProbeThroughputCmd& cmd) {
  const int target = world_.table().live_process_at(cmd.to);
  if (target < 0) return throughput_measured(cmd.probe, cmd.bytes, 0, false);
  bulk_probes_[cmd.probe] = BulkProbe{now(), cmd.bytes};
  Message* bulk = world_.pool().take();
  bulk->kind = MessageKind::Bulk;
  bulk->token = cmd.probe;
  // Like iperf: a TCP transfer whose sender's buffer is `cmd.window` (-w; 0 = its site's stack
  // default) towards a sink with a large window, bounded by the stacks' rate limits.
  put(target, bulk, cmd.bytes, Watch{MessageKind::Bulk, target, 0, cmd.probe},
      world_.stream_rate(index_, target, cmd.window, kProbeSinkBuffer));
}

void ProcessActor::on_bulk_put_done(const Watch& what) {
  const auto it = bulk_probes_.find(what.token);
  if (it == bulk_probes_.end()) return;
  const BulkProbe probe = it->second;
  bulk_probes_.erase(it);
  throughput_measured(what.token, probe.bytes, now() - probe.started, !world_.exited(what.target));
}

}  // namespace tsunagi::sim::simgrid
