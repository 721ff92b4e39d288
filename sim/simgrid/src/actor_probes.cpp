// RTT probes: K sequential ping/pong exchanges with the target's inbox, minimum kept.
//
// The target's adapter echoes a ping by itself, without waking its core (like a kernel answering
// ICMP or a UDP echo), so a busy or computing process answers as fast as an idle one. The RTT
// is measured from putting the ping to receiving the pong: both transfers, with whatever else
// shares their links at the time.
#include <algorithm>
#include <limits>

#include "process_actor.hpp"

namespace tsunagi::sim::simgrid {
namespace {

// Receive buffer of a throughput probe's sink: an iperf server with a large window (as ns-3's).
constexpr std::uint64_t kProbeSinkBuffer = std::uint64_t{64} << 20;

}  // namespace

void ProcessActor::start_rtt_probe(const ProbeRttCmd& cmd) {
  const int target = world_.table().live_process_at(cmd.to);
  if (target < 0) return rtt_measured(cmd.probe, 0, false);
  if (world_.route_probes()) {
    // Read off the route; the prober still spends K round trips of simulated time.
    const TimeNs rtt = world_.route_rtt(index_, target, cmd.bytes);
    arm(TimerKind::RouteProbe, cmd.probe, now() + std::max(1, cmd.samples) * rtt,
        static_cast<std::uint64_t>(rtt));
    return;
  }
  Probe& probe = probes_[cmd.probe];
  probe.target = target;
  probe.bytes = cmd.bytes;
  probe.samples = static_cast<std::uint32_t>(std::max(1, cmd.samples));
  probe.best = std::numeric_limits<TimeNs>::max();
  send_ping(cmd.probe, probe);
}

void ProcessActor::send_ping(std::uint64_t id, Probe& probe) {
  Message* ping = world_.pool().take();
  ping->kind = MessageKind::Ping;
  ping->token = id;
  ping->sample = probe.done;
  ping->echo_bytes = probe.bytes;
  probe.sent_at = now();
  put(probe.target, ping, probe.bytes, Watch{MessageKind::Ping, probe.target, 0, id, probe.done});
}

// The ping reached the target's host; a target that has exited will never answer.
void ProcessActor::on_ping_put_done(const Watch& what) {
  if (!world_.exited(what.target)) return;
  auto it = probes_.find(what.token);
  if (it == probes_.end() || it->second.target != what.target || it->second.done != what.sample)
    return;
  finish_probe(what.token, false);
}

void ProcessActor::on_ping(const Message& message) {
  Message* pong = world_.pool().take();
  pong->kind = MessageKind::Pong;
  pong->token = message.token;
  pong->sample = message.sample;
  put(message.from, pong, message.echo_bytes, Watch{MessageKind::Pong, message.from});
}

void ProcessActor::on_pong(const Message& message) {
  auto it = probes_.find(message.token);
  if (it == probes_.end()) return;
  Probe& probe = it->second;
  // A pong of an earlier probe with the same id, or of a sample already given up on.
  if (probe.target != message.from || probe.done != message.sample) return;
  probe.best = std::min(probe.best, now() - probe.sent_at);
  if (++probe.done < probe.samples)
    send_ping(message.token, probe);
  else
    finish_probe(message.token, true);
}

void ProcessActor::finish_probe(std::uint64_t id, bool ok) {
  const TimeNs best = probes_.at(id).best;
  probes_.erase(id);
  rtt_measured(id, best, ok);
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
