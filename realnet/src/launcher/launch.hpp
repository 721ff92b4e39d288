// One realnet run as the launcher drives it (run_realnet, realnet_backend.hpp): network up,
// rendezvous, ranks and relays, watch until everyone exited (or something failed), stop,
// network down, replay the event files into the observer.
//
// What happened to the processes is kept in a runner::ProcessTable, as on every backend: the
// daemons' "exited" status lines, their deaths, the [[faults]] kills, the harness's own
// failures (fail_run) and the grace after the first failure; its finish() ends the run.
// The table's observer hears nothing: the run's observer gets every event, exits included,
// from the replay of the daemons' event files, on the daemons' own clocks (event_replay.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../adapter/clock_stamp.hpp"
#include "launch_plan.hpp"
#include "run_manifest.hpp"
#include "supervisor.hpp"
#include "tsunagi/realnet/realnet_backend.hpp"
#include "tsunagi/runner/driver/process_table.hpp"

namespace tsunagi::realnet {

// The launcher's process table hears no events (the replay gives them to the run's observer).
class SilentObserver : public runner::RunObserver {
 public:
  void on_trace(const std::string&, TimeNs, const TraceCmd&) override {}
  void on_report(const std::string&, TimeNs, const ReportCmd&) override {}
  void on_exit(const std::string&, TimeNs, const ExitCmd&) override {}
  void on_backend_count(const std::string&, double) override {}
  void on_progress(const std::string&) override {}
};

class Launch {
 public:
  Launch(const scenario::Scenario& scenario, runner::RunObserver& observer,
         const LaunchOptions& options)
      : scenario_(scenario), observer_(observer), options_(options) {}

  runner::RunSummary run();

 private:
  static constexpr std::size_t kNoChild = static_cast<std::size_t>(-1);

  TimeNs now() const;
  // The table's rows from the plan: ranks, rendezvous, relays. Then the kills of [[faults]]
  // and --fault kill planned on them.
  void fill_table();
  void plan_kills();
  void start_process(const PlannedProcess& process, const std::string& rendezvous);
  void start_slurm_script();
  void stop_remote_daemons();
  std::string slurm_log_tail() const;
  void wait_for_rendezvous();
  void watch_until_done();
  void kill_due_processes();
  // Status lines and deaths of the children since the last poll (launch_status.cpp).
  void handle(const std::vector<ChildLine>& lines, const std::vector<ChildDeath>& deaths);
  void handle_line(const std::string& text);
  void handle_death(const ChildDeath& death);
  runner::RunSummary finish();

  const scenario::Scenario& scenario_;
  runner::RunObserver& observer_;
  const LaunchOptions& options_;
  std::int64_t epoch_ns_ = 0;  // the rendezvous's start on this machine's steady clock
  ClockStamp own_clock_;       // this launcher's, to place the rendezvous's start on it
  LaunchPlan plan_;
  RunManifest manifest_;
  Supervisor supervisor_;
  SilentObserver silent_;
  runner::ProcessTable table_{"realnet", silent_, nullptr};
  std::vector<std::size_t> child_of_;  // by table row: its child (Slurm: the script, for all)
  std::vector<bool> killed_;           // by table row: SIGKILLed for a planned kill
  std::size_t slurm_child_ = kNoChild;
  std::string rendezvous_endpoint_;  // from its "listening" line; "" until then
};

}  // namespace tsunagi::realnet
