// A tiny discrete-event world for unit tests of the whole protocol core, in the spirit of
// quinn-proto's Pair harness: no network library, fixed latencies by switch group, per-direction
// FIFO delivery. A test double only; the real backends live in sim/ and realnet/.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/roles.hpp"

namespace tsunagi::testing {

struct ToyRecord {
  std::string proc;
  TraceCmd trace;
};

class ToyWorld {
 public:
  // switch_of[r] = switch of rank r; host_of[r] = host of rank r.
  ToyWorld(ProtocolConfig config, std::vector<int> switch_of, std::vector<int> host_of);
  // Runs until every process exited or `limit` simulated ns passed; true if all exited ok.
  bool run(TimeNs limit = 1000 * kNsPerSec);

  std::vector<ToyRecord> traces;
  std::map<std::string, std::vector<nlohmann::json>> reports;  // key -> values
  std::vector<std::string> failures;
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
  struct ConnEnd { int peer_proc; ConnId peer_conn; };

  TimeNs one_way(int a, int b, std::uint64_t bytes) const;
  void schedule(TimeNs at, int proc, InputEvent ev);
  void perform(int proc, Command cmd);
  int proc_of(const Endpoint& e) const;
  std::string label(int proc) const;

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
};

}  // namespace tsunagi::testing
