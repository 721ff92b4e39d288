// Scripted processes, scenarios and an observer for the ns-3 backend tests. run_ns3 runs once
// per OS process, so every test case is its own ctest (catch_discover_tests).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/scenarios/scenario.hpp"
#include "tsunagi/sim/ns3/ns3_backend.hpp"

namespace tsunagi::ns3test {

class Scripted;
using Script = std::function<void(Scripted& self, const Input& input)>;

// Reacts to inputs with a test-supplied function and records every input it gets.
class Scripted : public Process {
 public:
  Scripted(Script script, std::vector<Input>* record)
      : script_(std::move(script)), record_(record) {}
  void handle(Input& input) override {
    record_->push_back(input);
    if (script_) {
      script_(*this, input);
    } else if (std::holds_alternative<StartedInput>(input.event)) {
      // Without a script a process leaves at once, the rendezvous too: no backend stops a
      // process for it (docs/backend-contract.md).
      emit(ExitCmd{true, "no script"});
    }
  }
  void command(Command command) { emit(std::move(command)); }

 private:
  Script script_;
  std::vector<Input>* record_;
};

class Observer : public runner::RunObserver {
 public:
  std::vector<std::string> log;
  std::vector<std::pair<std::string, double>> counts;
  void on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) override {
    log.push_back("trace " + proc + " " + std::to_string(now) + " " + trace.kind);
  }
  void on_report(const std::string& proc, TimeNs now, const ReportCmd& report) override {
    log.push_back("report " + proc + " " + std::to_string(now) + " " + report.key);
  }
  void on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) override {
    log.push_back("exit " + proc + " " + std::to_string(now) + " " + exit.reason);
  }
  void on_backend_count(const std::string& key, double value) override {
    counts.emplace_back(key, value);
  }
  void on_progress(const std::string&) override {}
};

struct Run {
  std::map<Rank, Script> scripts;  // kNoRank = the rendezvous (without a script: leaves at once)
  std::map<Rank, std::vector<Input>> inputs;
  Observer observer;
  runner::RunSummary summary;

  void run(const scenario::Scenario& scenario, const sim::ns3::Ns3Options& options = {}) {
    summary = sim::ns3::run_ns3_with(
        scenario, observer, options,
        runner::ProcessFactories{[this](Rank rank) {
                                   auto it = scripts.find(rank);
                                   return std::make_unique<Scripted>(
                                       it == scripts.end() ? Script{} : it->second, &inputs[rank]);
                                 },
                                 [this] {
                                   auto it = scripts.find(kNoRank);
                                   return std::make_unique<Scripted>(
                                       it == scripts.end() ? Script{} : it->second,
                                       &inputs[kNoRank]);
                                 }});
  }

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
};

inline scenario::SwitchSpec make_switch(const std::string& name, const std::string& parent,
                                        int hosts, TimeNs host_latency_us,
                                        TimeNs uplink_latency_us) {
  scenario::SwitchSpec sw;
  sw.name = name;
  sw.parent = parent;
  sw.hosts = hosts;
  sw.host_bandwidth = 125e6;
  sw.host_latency = host_latency_us * kNsPerUs;
  sw.uplink_bandwidth = 125e6;
  sw.uplink_latency = uplink_latency_us * kNsPerUs;
  return sw;
}

// The SimGrid tests' tree: core (1 host, 1 us) -> agg0 (uplink 10 us) -> edge0 (2 hosts, 2 us;
// uplink 20 us), edge1 (2 hosts, 3 us; uplink 30 us); core -> edge2 (2 hosts, 4 us; 40 us).
// 125 MB/s everywhere. Ranks: 0 = core-h00, 1-2 = edge0, 3-4 = edge1, 5-6 = edge2.
inline scenario::Scenario three_level_scenario(int procs_per_host = 1) {
  scenario::Scenario s;
  s.name = "three-level";
  s.network.switches = {make_switch("core", "", 1, 1, 0), make_switch("agg0", "core", 0, 1, 10),
                        make_switch("edge0", "agg0", 2, 2, 20),
                        make_switch("edge1", "agg0", 2, 3, 30),
                        make_switch("edge2", "core", 2, 4, 40)};
  s.placement.procs_per_host = procs_per_host;
  s.protocol.processes = scenario::process_count(s);
  return s;
}

constexpr double us(double microseconds) {
  return microseconds * 1e3;
}

}  // namespace tsunagi::ns3test
