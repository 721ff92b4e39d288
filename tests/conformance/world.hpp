// The backend-neutral harness of the conformance suite: a World runs a scenario with scripted
// processes and hands back what every process received. The cases (*_cases.cpp) are written
// once against this interface; each test binary links one implementation (simgrid_world.cpp,
// ns3_world.cpp, realnet_world.cpp), and ctest names its cases "conformance:<backend>:<case>".
//
// A scripted process reacts to every input with a test-supplied function and records the input
// first, so a case asserts on exactly what crossed the boundary (model/include/tsunagi/model/
// io.hpp), never on a backend's internals.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/runner/driver/process_driver.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::conformance {

// Where the processes of one run can be reached, in the backend's own endpoint format.
class Directory {
 public:
  virtual ~Directory() = default;
  // Where rank `rank` listens.
  virtual Endpoint endpoint_of(Rank rank) const = 0;
  // A well-formed endpoint on a machine of the run where no process listens (a closed port).
  virtual Endpoint vacant_endpoint() const = 0;
  // Where a connect to rank `rank` from outside its cluster goes when the scenario puts the rank
  // behind a dropping firewall: the SYN is lost and nothing ever answers. Simulators model the
  // firewall and hand out the rank's own endpoint; realnet in-process has no firewall and hands
  // out a loopback listener whose accept queue is full (the kernel drops SYNs there as well).
  virtual Endpoint firewalled_endpoint(Rank rank) const = 0;
};

class Scripted;
using Script = std::function<void(Scripted& self, const Input& input)>;

class Scripted final : public Process {
 public:
  Scripted(Script script, std::vector<Input>* record, const Directory& directory)
      : script_(std::move(script)), record_(record), directory_(directory) {}

  void handle(Input& input) override;
  void command(Command command) { emit(std::move(command)); }

  const Directory& world() const { return directory_; }
  Rank rank() const { return rank_; }
  const Endpoint& self() const { return self_; }

 private:
  Script script_;
  std::vector<Input>* record_;
  const Directory& directory_;
  Rank rank_ = kNoRank;
  Endpoint self_;
};

// The scripts of one run. A rank without one exits as soon as it starts; the rendezvous without
// one is wait_for_ranks (backends do not stop the rendezvous: its core leaves by itself).
using Scripts = std::map<Rank, Script>;

struct ExitRecord {
  std::string proc;  // runner::process_label
  TimeNs now = 0;
  bool ok = false;
  std::string reason;
};

struct Outcome {
  std::map<Rank, std::vector<Input>> inputs;  // kNoRank: the rendezvous
  std::vector<ExitRecord> exits;              // in the order the backend reported them
  bool all_exited_ok = false;
  std::string failure;  // the backend's first failure, "" when all exited ok

  // The inputs of `rank` holding an event of type T, with their times, in order.
  template <class T>
  std::vector<std::pair<TimeNs, T>> of(Rank rank) const {
    std::vector<std::pair<TimeNs, T>> found;
    auto it = inputs.find(rank);
    if (it == inputs.end()) return found;
    for (const Input& input : it->second)
      if (const T* event = std::get_if<T>(&input.event)) found.emplace_back(input.now, *event);
    return found;
  }
  // The inputs of `rank` about connection `conn` (Connected, Accepted, ConnectFailed, Received,
  // Closed), in order.
  std::vector<Input> about(Rank rank, ConnId conn) const;
  const std::vector<Input>& all(Rank rank) const;
  // The exit of process `proc` ("r0", "rendezvous"), or nullopt.
  std::optional<ExitRecord> exit_of(const std::string& proc) const;
};

// The connection an input is about, if it is about one.
std::optional<ConnId> conn_of(const InputEvent& event);

class World {
 public:
  virtual ~World() = default;
  virtual std::string name() const = 0;
  // True when time is the model's time on the scenario's network: timers fire exactly at their
  // deadline and a transfer cannot beat the scenario's latencies and bandwidths. False for real
  // sockets on loopback (only lower bounds on timers hold, the scenario's links are not there).
  virtual bool simulated() const = 0;
  // Runs the scenario to its end. `limit` bounds realnet's run in real time (what still runs
  // then is stopped). Simulators are bounded by kSimulatedLimit of simulated time instead: the
  // harness's rendezvous leaves with a failure then, so the simulation runs out of events.
  virtual Outcome run(const scenario::Scenario& scenario, const Scripts& scripts,
                      std::chrono::seconds limit) = 0;
};

// Beyond every give-up of the default SYN schedule (1 s doubling over 6 retries: 127 s), so a
// simulator's own time-outs always play out before the harness ends a run.
inline constexpr std::chrono::seconds kSimulatedLimit{300};

// The world of this test binary (one backend per binary: SimGrid and ns-3 allow one run per OS
// process, and catch_discover_tests starts the binary once per case).
std::unique_ptr<World> make_world();

// Records exits; everything else a backend reports is not part of the boundary under test.
class ExitObserver final : public runner::RunObserver {
 public:
  explicit ExitObserver(std::vector<ExitRecord>& exits) : exits_(exits) {}
  void on_trace(const std::string&, TimeNs, const TraceCmd&) override {}
  void on_report(const std::string&, TimeNs, const ReportCmd&) override {}
  void on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) override {
    exits_.push_back({proc, now, exit.ok, exit.reason});
  }
  void on_backend_count(const std::string&, double) override {}
  void on_progress(const std::string&) override {}

 private:
  std::vector<ExitRecord>& exits_;
};

// The script of a rank the case gives none: it leaves at once.
Script leave_at_start();
// The rendezvous's script when the case gives none: it serves nothing and leaves once all
// `ranks` ranks have exited (ExitCmd or killed), which it learns by looking every 10 ms
// at the exits the backend reported so far (`exits`, filled by the harness). A test-only side
// channel: a real rendezvous learns it from the protocol. After `limit` without that, it leaves
// with ok = false so a run whose ranks hang still ends.
Script wait_for_ranks(const std::vector<ExitRecord>& exits, int ranks, TimeNs limit);
// The script of `rank` in a run: the case's, or the default above.
Script script_for(const Scripts& scripts, Rank rank, const std::vector<ExitRecord>& exits,
                  int ranks, std::chrono::seconds limit);

// A simulator world's run: scripted processes (ranks and the rendezvous; relays run the core's)
// handed to `run_with(observer, factories)`, the backend's run_*_with, within kSimulatedLimit.
template <class RunWith>
Outcome run_scripted(const scenario::Scenario& scenario, const Scripts& scripts,
                     const Directory& directory, RunWith run_with) {
  Outcome outcome;
  const int ranks = scenario::process_count(scenario);
  for (Rank r = kNoRank; r < ranks; ++r) outcome.inputs[r];  // addresses stay put from here
  auto make = [&](Rank rank) {
    return std::make_unique<Scripted>(
        script_for(scripts, rank, outcome.exits, ranks, kSimulatedLimit), &outcome.inputs[rank],
        directory);
  };
  ExitObserver observer(outcome.exits);
  const runner::RunSummary summary =
      run_with(observer, runner::ProcessFactories{[&](Rank rank) { return make(rank); },
                                                  [&] { return make(kNoRank); }});
  outcome.all_exited_ok = summary.all_exited_ok;
  outcome.failure = summary.failure;
  return outcome;
}

}  // namespace tsunagi::conformance
