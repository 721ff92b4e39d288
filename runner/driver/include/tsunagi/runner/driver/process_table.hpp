// The processes of one run and what happened to them, the same on every backend.
//
// One row per process, in one order on every backend: the ranks in rank order, then the
// rendezvous, then the relays (scenario::relay_slots order). A backend keeps what only its
// world needs (hosts, mailboxes, sockets) beside the table, indexed the same way. The table
// records exits (the first failure is the run's), counts inputs for progress lines, sums the
// backend's counters and, at the end, reports every process that never exited. A backend of OS
// processes (realnet's launcher) ends its runs here too: deaths, its harness's failures and the
// grace before it stops what still runs (fail_run, fail_run_cause, failure_grace_over).
//
// C++17-clean: the ns-3 backend includes it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/runner/driver/phase_progress.hpp"
#include "tsunagi/runner/driver/run_summary.hpp"

namespace tsunagi::runner {

enum class Role : std::uint8_t { Node, Rendezvous, Relay };

struct ProcessRow {
  Role role = Role::Node;
  Rank rank = kNoRank;  // kNoRank for the rendezvous and relays
  std::string label;    // "r3", "rendezvous", or the relay's host ("chiba-relay0")
  Endpoint endpoint;    // where it listens, in the backend's own address form; "" not known
                        // (realnet's launcher learns it from the daemon)
  std::string host;     // the machine's name as registered (StartedInput::host)
  std::string site;     // its cluster, "" without clusters (StartedInput::site)
  TimeNs kill_at = -1;  // [[faults]]: when the scenario kills it, -1 never
  bool exited = false;
  TimeNs exited_at = -1;  // when it exited, -1 while it runs
  // How it ended, once exited: a backend that writes the exits down itself reads them here
  // (realnet's launcher gives them to the daemons that could not write their own).
  bool exit_ok = false;
  std::string exit_reason{};  // {}: backends aggregate-initialise rows without it
};

// A [[faults]] entry: the process labelled `label` is killed at `at`.
struct PlannedKill {
  std::string label;
  TimeNs at = 0;
};

// The reason every backend gives a process killed by [[faults]] (its exit is ok: planned).
inline constexpr const char* kKilledByFaults = "killed by the scenario's [[faults]]";

// What finish() records for a process still running when a simulation ran out of events.
inline constexpr const char* kStillWaiting = "still waiting when the simulation ran out of events";

// Backends of OS processes (realnet): after the run's first failure the other processes get
// this long to exit on their own (a failure reaches them as a lost connection) before the
// backend stops them. A simulator needs none: its processes end when its events run out.
inline constexpr TimeNs kFailureGraceNs = 2'000'000'000;

// The slot of each rank on its host: 0, 1, ... for the ranks of one host, which are consecutive
// (scenario::rank_to_host). Throws std::invalid_argument when a rank's host index is not below
// `host_count`.
std::vector<int> host_slots(const std::vector<int>& host_of_rank, std::size_t host_count);

// The secret of a simulated run with this seed: every process of the run holds it, exactly as
// a realnet run's processes hold the one its launcher drew.
std::string simulated_run_secret(std::uint64_t seed);

class ProcessTable {
 public:
  // `backend` starts each progress line ("simgrid: t=...").
  ProcessTable(std::string backend, RunObserver& observer,
               std::shared_ptr<const ProtocolConfig> config);

  // Adds a row; ranks first, then the rendezvous, then relays. Returns its index.
  int add(ProcessRow row);
  // Where the rendezvous listens, for a table that does not hold it (a realnet daemon's table
  // holds only its own process); add() sets it for the rendezvous's row.
  void locate_rendezvous(Endpoint endpoint) { rendezvous_endpoint_ = std::move(endpoint); }
  // The run's secret every process proves on every connection (tsunagi/model/handshake.hpp)
  // and the seed of their nonces. A simulated run derives both from the scenario's seed, so
  // its decisions repeat exactly; a realnet daemon sets the secret the launcher handed it and
  // a seed from the OS.
  void use_run_secret(std::string secret, std::uint64_t nonce_seed) {
    secret_ = std::move(secret);
    nonce_seed_ = nonce_seed;
  }
  // Marks the rows [[faults]] kill. Throws std::invalid_argument for a label no row has.
  void plan_kills(const std::vector<PlannedKill>& kills);

  int size() const { return static_cast<int>(rows_.size()); }
  int rank_count() const { return rank_count_; }
  int rendezvous_index() const { return rendezvous_index_; }
  const ProcessRow& row(int index) const { return rows_[static_cast<std::size_t>(index)]; }
  bool exited(int index) const { return row(index).exited; }
  // Exited strictly before `at`: a message that arrived at `at` found it gone.
  bool exited_before(int index, TimeNs at) const {
    return row(index).exited && row(index).exited_at < at;
  }
  bool all_exited() const { return running_ == 0; }
  // Index of the process listening at `endpoint`, or -1.
  int find(const Endpoint& endpoint) const;
  // Index of the process labelled `label` ("r3", "rendezvous", a relay's host), or -1.
  int find_label(const std::string& label) const;
  // The same, but -1 also when that process has exited (probes to it fail at once).
  int live_process_at(const Endpoint& endpoint) const;
  // What process `index` is told when it starts: ranks and relays get the rendezvous's endpoint.
  StartedInput started_input(int index) const;
  RunObserver& observer() { return observer_; }
  const std::shared_ptr<const ProtocolConfig>& config() const { return config_; }

  // Records the exit and tells the observer. Returns false (and does nothing) when the process
  // had already exited.
  bool record_exit(int index, TimeNs now, const ExitCmd& exit);
  // One input delivered; a progress line at the first input, then every 2 s of wall time.
  void count_input(TimeNs now);
  // A process saw the interrupt at `now` (the earliest is the run's, interrupt.hpp).
  void note_interrupt(TimeNs now) {
    if (interrupted_at_ < 0 || now < interrupted_at_) interrupted_at_ = now;
  }
  // A trace event of a process: moves the progress line's phase (phase_progress.hpp).
  void note_trace(const std::string& kind) { phases_.on_trace(kind, wall_now()); }
  // Seconds of wall time from any fixed point (default: std::chrono::steady_clock); tests
  // give a fake one.
  void set_wall_clock(std::function<double()> clock) { wall_clock_ = std::move(clock); }
  // Adds to a backend counter reported at the end ("inference.rtt_probes").
  void count(const std::string& key, double amount = 1) { counts_[key] += amount; }
  // Reports the counters to the observer (once; finish() does it if nobody did).
  void report_counts();

  // Workload messages (message_tap.hpp). The table records the first kMessagesMax messages
  // that leave its processes (none in a run of more than kMessageRanksMax ranks) and the
  // arrival of each; an arrival from a sender this table does not hold (a realnet daemon holds
  // only itself) is passed on for the observer to pair. Its nodes watch their streams while
  // the table still records sends or waits for a recorded message to arrive at one of them.
  bool watching_messages() const { return messages_left_ > 0 || !messages_in_flight_.empty(); }
  void note_message(int index, TimeNs now, const MessageEvent& event);

  // Failures that are no process's own exit, for backends of OS processes (realnet's launcher).
  // fail_run: the harness failed (a delay line died, the watchdog fired, an interrupt); the
  // first failure stays the run's, whether an exit's or this. fail_run_cause: the root cause,
  // ahead of every other failure: a process died before it exited (or the batch script that
  // held them ended), and the others' failures (a lost peer) follow from it even when they
  // were seen first. The first cause counts.
  void fail_run(TimeNs now, const std::string& why);
  void fail_run_cause(TimeNs now, const std::string& why);
  bool failed() const { return !failure_.empty() || !cause_.empty(); }
  // The run's failure so far: the first cause, else the first failure; "" while none.
  const std::string& failure() const { return cause_.empty() ? failure_ : cause_; }
  // The run failed at least kFailureGraceNs before `now`: stop the processes still running.
  bool failure_grace_over(TimeNs now) const {
    return failed() && now - failed_at_ > kFailureGraceNs;
  }

  // The run is over at `clock`: every process still running failed with `still_running` (a
  // simulator: kStillWaiting; realnet: stopped by the launcher), the counters are reported.
  // Returns the summary; `end` is the last exit (what is still in flight after it, FINs and
  // ACKs, is not part of the run).
  RunSummary finish(TimeNs clock, const std::string& still_running = kStillWaiting);

 private:
  std::string backend_;
  RunObserver& observer_;
  std::shared_ptr<const ProtocolConfig> config_;
  std::string secret_;
  std::uint64_t nonce_seed_ = 0;
  std::vector<ProcessRow> rows_;
  std::unordered_map<Endpoint, int> by_endpoint_;  // looked up only, never iterated
  std::map<std::string, double> counts_;           // ordered: reported in key order
  bool counts_reported_ = false;
  int rank_count_ = 0;
  Rank last_rank_ = kNoRank;
  int relays_ = 0;
  int rendezvous_index_ = -1;
  Endpoint rendezvous_endpoint_;
  int running_ = 0;
  int ranks_running_ = 0;
  TimeNs last_exit_ = 0;
  std::string failure_;
  std::string cause_;
  TimeNs failed_at_ = -1;  // when the first failure or cause was recorded
  std::uint64_t inputs_ = 0;
  std::function<double()> wall_clock_;
  double wall_start_ = -1;  // wall time of the first input; -1 before it
  double next_progress_wall_ = 0;
  std::uint64_t inputs_at_last_line_ = 0;
  double wall_at_last_line_ = 0;
  PhaseProgress phases_;
  TimeNs interrupted_at_ = -1;
  std::size_t messages_left_ = 0;
  std::set<Rank> ranks_;  // the ranks of the rows
  // (from, seq) of each recorded message to a rank held here that has not arrived yet
  std::set<std::pair<Rank, std::uint32_t>> messages_in_flight_;

  double wall_now() const;
  std::string progress_line(TimeNs now, double wall);
};

}  // namespace tsunagi::runner
