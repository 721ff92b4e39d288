#include "toy_world.hpp"

namespace tsunagi::testing {

ToyWorld::ToyWorld(ProtocolConfig config, std::vector<int> switch_of, std::vector<int> host_of)
    : switch_of_(std::move(switch_of)), host_of_(std::move(host_of)) {
  n_ = static_cast<int>(switch_of_.size());
  config.processes = n_;
  config_ = std::make_shared<const ProtocolConfig>(config);
  for (int r = 0; r < n_; ++r) procs_.push_back(make_node());
  procs_.push_back(make_rendezvous());
  exited_.assign(procs_.size(), false);
  conns_.resize(procs_.size());
  next_accept_.assign(procs_.size(), kAcceptedConnBit);
  schedule(0, n_, StartedInput{kNoRank, "rdv", "", "rdv-host", "", config_});
  for (int r = 0; r < n_; ++r) {
    schedule(1000, r, StartedInput{r, "p" + std::to_string(r), "rdv", "h" + std::to_string(host_of_[static_cast<std::size_t>(r)]), "", config_});
  }
}

std::string ToyWorld::label(int proc) const {
  return proc == n_ ? "rendezvous" : "r" + std::to_string(proc);
}

int ToyWorld::proc_of(const Endpoint& e) const {
  if (e == "rdv") return n_;
  if (e.size() > 1 && e[0] == 'p') return std::stoi(e.substr(1));
  return -1;
}

TimeNs ToyWorld::one_way(int a, int b, std::uint64_t bytes) const {
  TimeNs serialization = static_cast<TimeNs>(bytes);  // 1 GB/s
  if (a == n_ || b == n_) return 100 * kNsPerUs + serialization;
  auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  if (host_of_[ua] == host_of_[ub]) return 2 * kNsPerUs + serialization;
  if (switch_of_[ua] == switch_of_[ub]) return 20 * kNsPerUs + serialization;
  return 80 * kNsPerUs + serialization;
}

void ToyWorld::schedule(TimeNs at, int proc, InputEvent ev) {
  queue_.push(Event{at, seq_++, proc, std::move(ev)});
}

void ToyWorld::perform(int p, Command cmd) {
  std::visit(
      [&](auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, ConnectCmd>) {
          int target = proc_of(c.to);
          if (target < 0 || exited_[static_cast<std::size_t>(target)]) {
            schedule(now + 1000, p, ConnectFailedInput{c.conn, ConnectFailure::Refused});
            return;
          }
          ConnId accepted = next_accept_[static_cast<std::size_t>(target)]++;
          conns_[static_cast<std::size_t>(p)][c.conn] = {target, accepted};
          conns_[static_cast<std::size_t>(target)][accepted] = {p, c.conn};
          TimeNs ow = one_way(p, target, 64);
          schedule(now + ow, target, AcceptedInput{accepted});
          fifo_[{p, target}] = std::max(fifo_[{p, target}], now + 2 * ow);
          schedule(now + 2 * ow, p, ConnectedInput{c.conn});
        } else if constexpr (std::is_same_v<T, SendCmd>) {
          auto it = conns_[static_cast<std::size_t>(p)].find(c.conn);
          if (it == conns_[static_cast<std::size_t>(p)].end()) return;
          auto [peer, peer_conn] = it->second;
          if (tamper && !tamper(p, peer, c.bytes)) return;
          TimeNs& last = fifo_[{p, peer}];
          last = std::max(last, now + one_way(p, peer, c.bytes.size() + c.filler));
          schedule(last, peer, ReceivedInput{peer_conn, std::move(c.bytes), c.filler});
        } else if constexpr (std::is_same_v<T, CloseCmd>) {
          auto it = conns_[static_cast<std::size_t>(p)].find(c.conn);
          if (it == conns_[static_cast<std::size_t>(p)].end()) return;
          auto [peer, peer_conn] = it->second;
          conns_[static_cast<std::size_t>(p)].erase(it);
          conns_[static_cast<std::size_t>(peer)].erase(peer_conn);
          schedule(std::max(fifo_[{p, peer}], now + one_way(p, peer, 64)), peer, ClosedInput{peer_conn});
        } else if constexpr (std::is_same_v<T, ArmTimerCmd>) {
          schedule(c.at, p, TimerFiredInput{c.timer});
        } else if constexpr (std::is_same_v<T, ProbeRttCmd>) {
          ++probes;
          int target = proc_of(c.to);
          TimeNs rtt = 2 * one_way(p, target, c.bytes);
          schedule(now + rtt * c.samples, p, RttMeasuredInput{c.probe, rtt, target >= 0});
        } else if constexpr (std::is_same_v<T, ComputeCmd>) {
          schedule(now + c.duration, p, ComputeDoneInput{c.task});
        } else if constexpr (std::is_same_v<T, ProbeThroughputCmd>) {
          // No sharing in the toy world: every transfer gets the full link.
          const int target = proc_of(c.to);
          const TimeNs took = one_way(p, target, c.bytes);
          schedule(now + took, p, ThroughputMeasuredInput{c.probe, c.bytes, took, target >= 0});
        } else if constexpr (std::is_same_v<T, TraceCmd>) {
          traces.push_back({label(p), c});
        } else if constexpr (std::is_same_v<T, ReportCmd>) {
          reports[c.key].push_back(c.value);
        } else if constexpr (std::is_same_v<T, ExitCmd>) {
          exited_[static_cast<std::size_t>(p)] = true;
          if (!c.ok) failures.push_back(label(p) + ": " + c.reason);
        }
      },
      cmd);
}

bool ToyWorld::run(TimeNs limit) {
  while (!queue_.empty()) {
    Event ev = queue_.top();
    queue_.pop();
    if (ev.at > limit) break;
    now = ev.at;
    auto p = static_cast<std::size_t>(ev.proc);
    if (exited_[p]) continue;
    procs_[p]->handle(Input{now, std::move(ev.event)});
    for (auto& cmd : procs_[p]->drain_commands()) perform(ev.proc, std::move(cmd));
  }
  for (bool e : exited_) {
    if (!e) return false;
  }
  return failures.empty();
}

}  // namespace tsunagi::testing
