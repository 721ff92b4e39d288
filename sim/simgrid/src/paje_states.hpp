// --paje: the protocol phase of every process as a Paje state of its host (issue 33), so that
// ViTE or pj_dump show when each rank was inferring, setting up, running the workload or done.
// The phases are read off the trace events every backend already passes to the runner (the
// same kinds PhaseProgress follows), by an observer that forwards everything unchanged.
#pragma once

#include <map>
#include <string>

#include "tsunagi/runner/driver/observer.hpp"

namespace tsunagi::sim::simgrid {

class PajeStates final : public runner::RunObserver {
 public:
  explicit PajeStates(runner::RunObserver& next) : next_(next) {}

  // Declares the state type and its values, and puts every process's host in "starting" at
  // the current clock (call before the engine runs). `host_of`: trace label -> host name.
  void start(std::map<std::string, std::string> host_of);

  void on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) override;
  void on_report(const std::string& proc, TimeNs now, const ReportCmd& report) override {
    next_.on_report(proc, now, report);
  }
  void on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) override;
  void on_backend_count(const std::string& key, double value) override {
    next_.on_backend_count(key, value);
  }
  void on_progress(const std::string& message) override { next_.on_progress(message); }
  void on_message(const std::string& proc, TimeNs now, const runner::MessageEvent& event) override {
    next_.on_message(proc, now, event);
  }

 private:
  struct Process {
    std::string host;
    const char* phase = nullptr;
  };
  void set(Process& process, const char* phase);
  void set(const std::string& proc, const char* phase);

  runner::RunObserver& next_;
  std::map<std::string, Process> processes_;  // by trace label; empty: tracing is off
};

// The Paje state a trace event of this kind starts, or nullptr when it starts none.
const char* paje_phase_of(const std::string& kind);

}  // namespace tsunagi::sim::simgrid
