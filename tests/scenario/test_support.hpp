// Scenarios and an observer for the SimGrid backend tests.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u/Engine.hpp>

#include "engine_setup.hpp"
#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::test {

// The Engine of this test process (one per process: each test case runs as its own ctest).
struct EngineHolder {
  std::unique_ptr<simgrid::s4u::Engine> engine = sim::simgrid::make_engine();
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

// core (1 host, 1 us) -> agg0 (uplink 10 us) -> edge0 (2 hosts, 2 us; uplink 20 us)
//                                           -> edge1 (2 hosts, 3 us; uplink 30 us)
//                     -> edge2 (2 hosts, 4 us; uplink 40 us)
// Ranks (one per host): 0 = core-h00, 1-2 = edge0, 3-4 = edge1, 5-6 = edge2.
inline scenario::Scenario three_level_scenario() {
  scenario::Scenario s;
  s.name = "three-level";
  s.network.switches = {make_switch("core", "", 1, 1, 0), make_switch("agg0", "core", 0, 1, 10),
                        make_switch("edge0", "agg0", 2, 2, 20),
                        make_switch("edge1", "agg0", 2, 3, 30),
                        make_switch("edge2", "core", 2, 4, 40)};
  s.network.loopback_latency = 500;  // 0.5 us
  s.network.loopback_bandwidth = 10e9;
  s.placement.procs_per_host = 1;
  s.protocol.processes = scenario::process_count(s);
  return s;
}

// A root switch without hosts and `edges` edge switches of `hosts` hosts each, 5 us links.
inline scenario::Scenario wide_scenario(int edges, int hosts) {
  scenario::Scenario s;
  s.name = "wide";
  s.network.switches.push_back(make_switch("root", "", 0, 5, 0));
  for (int e = 0; e < edges; ++e)
    s.network.switches.push_back(make_switch("e" + std::to_string(e), "root", hosts, 5, 5));
  s.protocol.processes = scenario::process_count(s);
  return s;
}

// Everything the backend reported, in order.
class RecordingObserver : public runner::RunObserver {
 public:
  struct Exit {
    std::string proc;
    TimeNs now;
    bool ok;
    std::string reason;
  };
  std::vector<std::string> log;  // one line per call, for determinism checks
  std::vector<Exit> exits;
  std::vector<std::pair<std::string, double>> counts;
  std::vector<std::pair<std::string, ReportCmd>> reports;

  void on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) override {
    log.push_back("trace " + proc + " " + std::to_string(now) + " " + trace.kind + " " +
                  trace.detail.dump());
  }
  void on_report(const std::string& proc, TimeNs now, const ReportCmd& report) override {
    log.push_back("report " + proc + " " + std::to_string(now) + " " + report.key + " " +
                  report.value.dump());
    reports.emplace_back(proc, report);
  }
  void on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) override {
    log.push_back("exit " + proc + " " + std::to_string(now) + " " + exit.reason);
    exits.push_back({proc, now, exit.ok, exit.reason});
  }
  void on_backend_count(const std::string& key, double value) override {
    counts.emplace_back(key, value);
  }
  void on_progress(const std::string&) override {}

  // The value reported under `key` by `proc`; null when it reported none.
  nlohmann::json report_of(const std::string& proc, const std::string& key) const {
    for (const auto& [p, r] : reports)
      if (p == proc && r.key == key) return r.value;
    return nullptr;
  }
};

}  // namespace tsunagi::test
