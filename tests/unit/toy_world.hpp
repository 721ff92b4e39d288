// A tiny discrete-event world for unit tests of the whole protocol core, in the spirit of
// quinn-proto's Pair harness: no network library, fixed latencies by switch group, per-direction
// FIFO delivery. A test double only; the real backends live in sim/ and realnet/.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/roles.hpp"

namespace tsunagi::testing {

// Sites (LANs) behind a policy, with relay daemons: the relay plan of paper 001 in miniature.
// Processes of different sites are 5 ms apart one way; `blocked` says what a connect from one
// site to another meets (nullopt = accepted; TimedOut arrives after 10 s).
struct ToySites {
  std::vector<int> site_of_rank;
  std::vector<std::string> names;  // site index -> name
  std::vector<int> relay_sites;    // one entry per relay: its site
  std::function<std::optional<ConnectFailure>(int from_site, int to_site)> blocked;
};

struct ToyRecord {
  std::string proc;
  TraceCmd trace;
};

struct ToyWindow {
  std::string proc;
  SetWindowCmd window;
};

class ToyWorld {
 public:
  // switch_of[r] = switch of rank r; host_of[r] = host of rank r.
  ToyWorld(ProtocolConfig config, std::vector<int> switch_of, std::vector<int> host_of,
           ToySites sites = {});
  // Kills process `proc` (ranks 0..n-1, then the rendezvous, then the relays) at `at`: its
  // peers see their connections close, as after a crash.
  void kill(int proc, TimeNs at) { kills_.emplace_back(at, proc); }
  int relay_proc(int relay) const { return n_ + 1 + relay; }
  // Runs until every process exited or `limit` simulated ns passed; true if all exited ok.
  bool run(TimeNs limit = 1000 * kNsPerSec);

  std::vector<ToyRecord> traces;
  std::map<std::string, std::vector<nlohmann::json>> reports;  // key -> values
  std::vector<std::string> failures;
  std::vector<ToyWindow> windows;  // every buffer setting a core gave, in order
  std::uint64_t probes = 0;
  TimeNs now = 0;
  // Optional: corrupt or drop frames for fault tests (return false to drop).
  std::function<bool(int from, int to, Bytes& bytes)> tamper;

 private:
  struct Event {
    TimeNs at;
    std::uint64_t seq;
    int proc;
    InputEvent event;
    bool operator>(const Event& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct ConnEnd {
    int peer_proc;
    ConnId peer_conn;
  };

  TimeNs one_way(int a, int b, std::uint64_t bytes) const;
  void schedule(TimeNs at, int proc, InputEvent ev);
  struct Performer;  // toy_world.cpp: one member per command kind
  int proc_of(const Endpoint& e) const;
  std::string label(int proc) const;
  int site_of(int proc) const;
  std::optional<ConnectFailure> policy(int from, int to) const;
  void crash(int proc);

  std::shared_ptr<const ProtocolConfig> config_;
  std::vector<int> switch_of_, host_of_;
  std::vector<std::unique_ptr<Process>> procs_;
  std::vector<bool> exited_;
  std::vector<std::map<ConnId, ConnEnd>> conns_;
  std::map<std::pair<int, int>, TimeNs> fifo_;  // last delivery per direction
  std::vector<ConnId> next_accept_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> queue_;
  std::uint64_t seq_ = 0;
  int n_;
  ToySites sites_;
  std::vector<std::string> relay_labels_;
  std::vector<std::pair<TimeNs, int>> kills_;
};

}  // namespace tsunagi::testing
