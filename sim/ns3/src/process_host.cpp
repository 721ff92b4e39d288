// The command loop of one process: deliver, perform, schedule. See process_host.hpp.
#include "process_host.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <ns3/simulator.h>
#include <ns3/tcp-socket-factory.h>

#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

namespace n3 = ::ns3;

ProcessHost::ProcessHost(World& world, int index, std::unique_ptr<Process> core)
    : world_(world), index_(index), self_(world.process(index)), core_(std::move(core)) {
  self_.process = this;
}

ProcessHost::~ProcessHost() {
  self_.process = nullptr;
}

TimeNs ProcessHost::now() const {
  return std::max(last_now_, static_cast<TimeNs>(n3::Simulator::Now().GetNanoSeconds()));
}

void ProcessHost::start() {
  open_listeners();
  StartedInput started;
  started.rank = self_.rank;
  started.self = self_.endpoint;
  if (self_.rank != kNoRank || self_.relay)  // relays register with the rendezvous too
    started.rendezvous = world_.process(world_.rendezvous_index()).endpoint;
  started.host = self_.host;
  started.site = self_.site;
  started.config = world_.config();
  deliver(std::move(started));
}

// One input at a time: an input that arises while the core's commands are being performed
// (ns-3 may call back from inside a socket call) is queued and delivered after them.
void ProcessHost::deliver(InputEvent event) {
  if (zombie_) return;
  pending_.push_back(std::move(event));
  if (delivering_) return;
  delivering_ = true;
  try {
    while (!pending_.empty() && !zombie_) {
      InputEvent next = std::move(pending_.front());
      pending_.pop_front();
      last_now_ = now();
      core_->handle(Input{last_now_, std::move(next)});
      world_.count_event(last_now_);
      perform_commands();
    }
  } catch (const std::exception& error) {
    // The core (or this adapter) broke: this process dies, the run goes on and reports it.
    delivering_ = false;
    stop(ExitCmd{false, std::string("exception: ") + error.what()});
  }
  delivering_ = false;
}

// Timers are never cancelled: the core ignores the ones it no longer wants.
void ProcessHost::arm_timer(const ArmTimerCmd& cmd) {
  n3::Simulator::Schedule(n3::NanoSeconds(std::max<TimeNs>(0, cmd.at - now())),
                          &ProcessHost::on_timer, this, cmd.timer);
}

// A computation is a delay: the process's host has a core per process
// (placement.procs_per_host cores), and the core runs one computation at a time.
void ProcessHost::compute(const ComputeCmd& cmd) {
  n3::Simulator::Schedule(n3::NanoSeconds(std::max<TimeNs>(0, cmd.duration)),
                          &ProcessHost::on_compute_done, this, cmd.task);
}

void ProcessHost::trace(const TraceCmd& cmd) { world_.observer().on_trace(self_.label, now(), cmd); }

void ProcessHost::report(const ReportCmd& cmd) {
  world_.observer().on_report(self_.label, now(), cmd);
}

void ProcessHost::on_timer(std::uint64_t timer) {
  deliver(TimerFiredInput{timer});
}

void ProcessHost::on_compute_done(std::uint64_t task) {
  deliver(ComputeDoneInput{task});
}

// Exiting closes the listeners (later connects are refused, pings go unanswered) and every
// connection: what is queued still goes, then a FIN, as a kernel flushes a dead process's
// sockets. The core is dropped; callbacks still arriving only finish the flushing.
void ProcessHost::stop(const ExitCmd& exit) {
  if (zombie_) return;
  zombie_ = true;
  pending_.clear();
  for (auto& entry : probes_) n3::Simulator::Remove(entry.second.timeout);
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
  core_.reset();
  world_.record_exit(index_, now(), exit);
}

n3::Ipv4Address ProcessHost::address_of(int target) const {
  const ProcessEntry& entry = world_.process(target);
  // Like a kernel, traffic to a process on the same machine goes over loopback.
  return entry.node == self_.node ? n3::Ipv4Address::GetLoopback() : entry.address;
}

ProcessHost::SocketPtr ProcessHost::new_tcp_socket() {
  return n3::Socket::CreateSocket(self_.node, n3::TcpSocketFactory::GetTypeId());
}

}  // namespace tsunagi::sim::ns3
