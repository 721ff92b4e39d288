#include "toy_world.hpp"

namespace tsunagi::testing {

namespace {
const std::string kToySecret = "the toy world's run secret";
}  // namespace

ToyWorld::ToyWorld(ProtocolConfig config, std::vector<int> switch_of, std::vector<int> host_of,
                   ToySites sites)
    : switch_of_(std::move(switch_of)), host_of_(std::move(host_of)), sites_(std::move(sites)) {
  n_ = static_cast<int>(switch_of_.size());
  config.processes = n_;
  config.relays = static_cast<int>(sites_.relay_sites.size());
  config_ = std::make_shared<const ProtocolConfig>(config);
  for (int r = 0; r < n_; ++r) procs_.push_back(make_node());
  procs_.push_back(make_rendezvous());
  std::map<int, int> relays_in_site;
  for (int site : sites_.relay_sites) {
    procs_.push_back(make_relay());
    const std::string name = sites_.names.at(static_cast<std::size_t>(site));
    relay_labels_.push_back(name + "-relay" + std::to_string(relays_in_site[site]++));
  }
  exited_.assign(procs_.size(), false);
  conns_.resize(procs_.size());
  next_accept_.assign(procs_.size(), kAcceptedConnBit);
  // Every toy run authenticates, as every backend's does (handshake.hpp).
  schedule(0, n_, StartedInput{kNoRank, "rdv", "", "rdv-host", "", config_, kToySecret, 1000});
  for (int r = 0; r < n_; ++r) {
    const std::string site = sites_.site_of_rank.empty()
                                 ? ""
                                 : sites_.names.at(static_cast<std::size_t>(
                                       sites_.site_of_rank.at(static_cast<std::size_t>(r))));
    schedule(1000, r,
             StartedInput{r, "p" + std::to_string(r), "rdv",
                          "h" + std::to_string(host_of_[static_cast<std::size_t>(r)]), site,
                          config_, kToySecret, static_cast<std::uint64_t>(r)});
  }
  for (std::size_t i = 0; i < relay_labels_.size(); ++i) {
    const std::string& site = sites_.names.at(static_cast<std::size_t>(sites_.relay_sites[i]));
    schedule(1000, relay_proc(static_cast<int>(i)),
             StartedInput{kNoRank, "q" + std::to_string(i), "rdv", relay_labels_[i], site, config_,
                          kToySecret, 2000 + i});
  }
}

int ToyWorld::site_of(int proc) const {
  if (proc < n_)
    return sites_.site_of_rank.empty() ? -1 : sites_.site_of_rank[static_cast<std::size_t>(proc)];
  if (proc == n_) return -1;  // the rendezvous: reachable from everywhere, like kototoi
  return sites_.relay_sites.at(static_cast<std::size_t>(proc - n_ - 1));
}

std::optional<ConnectFailure> ToyWorld::policy(int from, int to) const {
  const int a = site_of(from), b = site_of(to);
  if (a < 0 || b < 0 || a == b || !sites_.blocked) return std::nullopt;
  return sites_.blocked(a, b);
}

// A crash: the process stops and every peer sees its connection close.
void ToyWorld::crash(int proc) {
  exited_[static_cast<std::size_t>(proc)] = true;
  for (auto& [conn, end] : conns_[static_cast<std::size_t>(proc)]) {
    conns_[static_cast<std::size_t>(end.peer_proc)].erase(end.peer_conn);
    schedule(std::max(fifo_[{proc, end.peer_proc}], now + one_way(proc, end.peer_proc, 64)),
             end.peer_proc, ClosedInput{end.peer_conn});
  }
  conns_[static_cast<std::size_t>(proc)].clear();
}

std::string ToyWorld::label(int proc) const {
  if (proc > n_) return relay_labels_.at(static_cast<std::size_t>(proc - n_ - 1));
  return proc == n_ ? "rendezvous" : "r" + std::to_string(proc);
}

int ToyWorld::proc_of(const Endpoint& e) const {
  if (e == "rdv") return n_;
  if (e.size() > 1 && e[0] == 'p') return std::stoi(e.substr(1));
  if (e.size() > 1 && e[0] == 'q') return n_ + 1 + std::stoi(e.substr(1));
  return -1;
}

TimeNs ToyWorld::one_way(int a, int b, std::uint64_t bytes) const {
  TimeNs serialization = static_cast<TimeNs>(bytes);  // 1 GB/s
  if (a == n_ || b == n_) return 100 * kNsPerUs + serialization;
  if (site_of(a) != site_of(b)) return 5 * kNsPerMs + serialization;
  if (a > n_ || b > n_) return 20 * kNsPerUs + serialization;  // a relay on the site's switch
  auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
  if (host_of_[ua] == host_of_[ub]) return 2 * kNsPerUs + serialization;
  if (switch_of_[ua] == switch_of_[ub]) return 20 * kNsPerUs + serialization;
  return 80 * kNsPerUs + serialization;
}

void ToyWorld::schedule(TimeNs at, int proc, InputEvent ev) {
  queue_.push(Event{at, seq_++, proc, std::move(ev)});
}

// The toy world's side of every command kind, performed through perform_commands (io.hpp) as
// the backends' are: a command kind added to the boundary and not handled here fails to compile.
struct ToyWorld::Performer {
  ToyWorld& w;
  int p;

  bool stopped() const { return false; }  // the toy world performs what follows an exit too
  void connect(const ConnectCmd& c) {
    const int target = w.proc_of(c.to);
    if (target < 0 || w.exited_[static_cast<std::size_t>(target)]) {
      w.schedule(w.now + 1000, p, ConnectFailedInput{c.conn, ConnectFailure::Refused});
      return;
    }
    if (auto failure = w.policy(p, target)) {
      const TimeNs after =
          *failure == ConnectFailure::TimedOut ? 10 * kNsPerSec : 2 * w.one_way(p, target, 64);
      w.schedule(w.now + after, p, ConnectFailedInput{c.conn, *failure});
      return;
    }
    ConnId accepted = w.next_accept_[static_cast<std::size_t>(target)]++;
    w.conns_[static_cast<std::size_t>(p)][c.conn] = {target, accepted};
    w.conns_[static_cast<std::size_t>(target)][accepted] = {p, c.conn};
    TimeNs ow = w.one_way(p, target, 64);
    w.schedule(w.now + ow, target, AcceptedInput{accepted});
    w.fifo_[{p, target}] = std::max(w.fifo_[{p, target}], w.now + 2 * ow);
    w.schedule(w.now + 2 * ow, p, ConnectedInput{c.conn});
  }
  void send(SendCmd& c) {
    auto it = w.conns_[static_cast<std::size_t>(p)].find(c.conn);
    if (it == w.conns_[static_cast<std::size_t>(p)].end()) return;
    auto [peer, peer_conn] = it->second;
    if (w.tamper && !w.tamper(p, peer, c.bytes)) return;
    TimeNs& last = w.fifo_[{p, peer}];
    last = std::max(last, w.now + w.one_way(p, peer, c.bytes.size() + c.filler));
    w.schedule(last, peer, ReceivedInput{peer_conn, std::move(c.bytes), c.filler});
  }
  void close(ConnId conn, bool /*refused: the toy world has no descriptors to free*/) {
    auto it = w.conns_[static_cast<std::size_t>(p)].find(conn);
    if (it == w.conns_[static_cast<std::size_t>(p)].end()) return;
    auto [peer, peer_conn] = it->second;
    w.conns_[static_cast<std::size_t>(p)].erase(it);
    w.conns_[static_cast<std::size_t>(peer)].erase(peer_conn);
    w.schedule(std::max(w.fifo_[{p, peer}], w.now + w.one_way(p, peer, 64)), peer,
               ClosedInput{peer_conn});
  }
  void arm_timer(const ArmTimerCmd& c) { w.schedule(c.at, p, TimerFiredInput{c.timer}); }
  void probe_rtt(const ProbeRttCmd& c) {
    if (c.sample == 0) ++w.probes;  // an RTT probe is counted at its first echo
    int target = w.proc_of(c.to);
    TimeNs rtt = 2 * w.one_way(p, target, c.bytes);
    w.schedule(w.now + rtt, p, RttMeasuredInput{c.probe, rtt, target >= 0});
  }
  void probe_throughput(const ProbeThroughputCmd& c) {
    // No sharing in the toy world: every transfer gets the full link.
    const int target = w.proc_of(c.to);
    const TimeNs took = w.one_way(p, target, c.bytes);
    w.schedule(w.now + took, p, ThroughputMeasuredInput{c.probe, c.bytes, took, target >= 0});
  }
  void compute(const ComputeCmd& c) { w.schedule(w.now + c.duration, p, ComputeDoneInput{c.task}); }
  void trace(const TraceCmd& c) { w.traces.push_back({w.label(p), c}); }
  void report(const ReportCmd& c) { w.reports[c.key].push_back(c.value); }
  void exit_process(const ExitCmd& c) {
    w.exited_[static_cast<std::size_t>(p)] = true;
    if (!c.ok) w.failures.push_back(w.label(p) + ": " + c.reason);
  }
  // Links in the toy world have no windows to size: each setting is kept for the tests.
  void set_window(const SetWindowCmd& c) { w.windows.push_back({w.label(p), c}); }
};

bool ToyWorld::run(TimeNs limit) {
  while (!queue_.empty()) {
    Event ev = queue_.top();
    queue_.pop();
    if (ev.at > limit) break;
    now = ev.at;
    for (auto it = kills_.begin(); it != kills_.end();) {
      if (it->first > now) {
        ++it;
        continue;
      }
      crash(it->second);
      it = kills_.erase(it);
    }
    auto p = static_cast<std::size_t>(ev.proc);
    if (exited_[p]) continue;
    Input input{now, std::move(ev.event)};
    procs_[p]->handle(input);
    Performer performer{*this, ev.proc};
    perform_commands(*procs_[p], performer);
  }
  for (bool e : exited_) {
    if (!e) return false;
  }
  return failures.empty();
}

}  // namespace tsunagi::testing
