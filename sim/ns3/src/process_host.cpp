// The command loop of one process: deliver, perform, schedule. See process_host.hpp.
#include "process_host.hpp"
#include "tcp_socket.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <ns3/simulator.h>

#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

ProcessHost::ProcessHost(World& world, int index, std::unique_ptr<Process> core)
    : DrivenProcess(world.table(), index, std::move(core)),
      world_(world),
      index_(index),
      self_(world.slot(index)) {
  self_.process = this;
}

ProcessHost::~ProcessHost() {
  self_.process = nullptr;
}

TimeNs ProcessHost::now() const {
  return static_cast<TimeNs>(n3::Simulator::Now().GetNanoSeconds());
}

// At time 0: listeners first, so a rank connecting at once finds the rendezvous listening.
void ProcessHost::start() {
  open_listeners();
  if (const TimeNs kill = driver_.row().kill_at; kill >= 0) arm_world_timer(kill, 0, 0);
  deliver(driver_.started_input());
}

// The only world timer: [[faults]] kills as a kernel ends a process (listeners and connections
// closed, queued bytes flushed, the core gone). Planned, so the exit is ok.
void ProcessHost::on_world_timer(const runner::DueTimer&) {
  stop(ExitCmd{true, runner::kKilledByFaults});
}

// A later request replaces the pending one (removed, not cancelled: a cancelled event stays in
// the scheduler until its time).
void ProcessHost::wake_at(TimeNs at) {
  if (!wake_.IsExpired()) n3::Simulator::Remove(wake_);
  wake_ = n3::Simulator::Schedule(n3::NanoSeconds(std::max<TimeNs>(0, at - now())),
                                  &ProcessHost::on_wake, this);
}

// A computation is a delay: the process's host has a core per process
// (placement.procs_per_host cores), and the core runs one computation at a time.
void ProcessHost::compute(const ComputeCmd& cmd) {
  n3::Simulator::Schedule(n3::NanoSeconds(std::max<TimeNs>(0, cmd.duration)),
                          &ProcessHost::on_compute_done, this, cmd.task);
}

void ProcessHost::on_wake() {
  fire_due_timers();
}

void ProcessHost::on_compute_done(std::uint64_t task) {
  deliver(ComputeDoneInput{task});
}

// Exiting closes the listeners (later connects are refused, pings go unanswered) and every
// connection: what is queued still goes, then a FIN, as a kernel flushes a dead process's
// sockets. The core is dropped; callbacks still arriving only finish the flushing.
void ProcessHost::stop(const ExitCmd& exit) {
  if (!driver_.exit(now(), exit)) return;
  drop_timers();
  probes_.clear();
  for (SocketPtr* socket : {&listener_, &udp_, &bulk_listener_}) {
    if (!*socket) continue;
    (*socket)->SetRecvCallback(n3::MakeNullCallback<void, SocketPtr>());
    (*socket)->Close();
    *socket = nullptr;
  }
  close_all();
  // Transfers still coming in end with a reset-like close; closed in probe order, so the
  // run does not depend on where the sockets happen to live in memory.
  std::vector<std::pair<std::uint64_t, SocketPtr>> incoming;
  for (const auto& entry : bulk_in_) incoming.emplace_back(entry.second.probe, entry.second.socket);
  std::sort(incoming.begin(), incoming.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  bulk_in_.clear();
  for (auto& entry : incoming) {
    entry.second->SetRecvCallback(n3::MakeNullCallback<void, SocketPtr>());
    entry.second->Close();
  }
  world_.on_exited();
}

n3::Ipv4Address ProcessHost::address_of(int target) const {
  const NodeSlot& entry = world_.slot(target);
  // Like a kernel, traffic to a process on the same machine goes over loopback.
  return entry.node == self_.node ? n3::Ipv4Address::GetLoopback() : entry.address;
}

ProcessHost::SocketPtr ProcessHost::new_tcp_socket() {
  return create_tcp_socket(self_.node);
}

}  // namespace tsunagi::sim::ns3
