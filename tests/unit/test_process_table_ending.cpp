// How a run of OS processes ends through the process table (realnet's launcher): rows without
// endpoints, found by label; a death as the run's root cause ahead of failures seen first; the
// harness's own failures; the grace after the first failure; finish with the launcher's reason
// and each row's exit for the daemons that could not write their own.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tsunagi/runner/driver/process_table.hpp"

using namespace tsunagi;
using runner::ProcessRow;
using runner::ProcessTable;
using runner::Role;

namespace {

struct ExitLog final : runner::RunObserver {
  std::vector<std::string> exits;
  void on_trace(const std::string&, TimeNs, const TraceCmd&) override {}
  void on_report(const std::string&, TimeNs, const ReportCmd&) override {}
  void on_exit(const std::string& proc, TimeNs, const ExitCmd& exit) override {
    exits.push_back(proc + (exit.ok ? " ok " : " failed ") + exit.reason);
  }
  void on_backend_count(const std::string&, double) override {}
  void on_progress(const std::string&) override {}
};

// As the launcher fills it: labels only, where they listen is not known yet.
ProcessTable launcher_table(ExitLog& log) {
  ProcessTable table("realnet", log, nullptr);
  for (Rank r = 0; r < 3; ++r) {
    ProcessRow row;
    row.role = Role::Node;
    row.rank = r;
    row.label = "r" + std::to_string(r);
    table.add(row);
  }
  ProcessRow rendezvous;
  rendezvous.role = Role::Rendezvous;
  rendezvous.label = "rendezvous";
  table.add(rendezvous);
  return table;
}

}  // namespace

TEST_CASE("process table: rows without endpoints are found by label") {
  ExitLog log;
  ProcessTable table = launcher_table(log);
  CHECK(table.find_label("r2") == 2);
  CHECK(table.find_label("rendezvous") == table.rendezvous_index());
  CHECK(table.find_label("r9") == -1);
  CHECK(table.find("") == -1);
}

TEST_CASE("process table: a death is the run's failure even when another failure came first") {
  ExitLog log;
  ProcessTable table = launcher_table(log);
  table.record_exit(0, 100, ExitCmd{false, "lost the rendezvous"});
  CHECK(table.failure() == "r0 failed: lost the rendezvous");
  table.fail_run_cause(120, "r1 died (killed by signal 9) before it exited");
  table.record_exit(1, 120, ExitCmd{false, "died (killed by signal 9) before it exited"});
  table.fail_run_cause(130, "r2 died later");
  table.fail_run(140, "interrupted by SIGINT");
  CHECK(table.failure() == "r1 died (killed by signal 9) before it exited");

  const runner::RunSummary summary =
      table.finish(200, "stopped by the launcher: " + table.failure());
  CHECK_FALSE(summary.all_exited_ok);
  CHECK(summary.failure == "r1 died (killed by signal 9) before it exited");
  CHECK(summary.end == 200);
  const ProcessRow& stopped = table.row(2);
  CHECK(stopped.exited_at == 200);
  CHECK_FALSE(stopped.exit_ok);
  CHECK(stopped.exit_reason ==
        "stopped by the launcher: r1 died (killed by signal 9) before it exited");
  CHECK(table.row(1).exit_reason == "died (killed by signal 9) before it exited");
  CHECK(log.exits.size() == 4);
}

TEST_CASE("process table: the harness's failure counts only when no exit failed first") {
  ExitLog log;
  ProcessTable table = launcher_table(log);
  CHECK_FALSE(table.failed());
  table.fail_run(50, "tsunagi-delayline died (exit status 1)");
  table.record_exit(0, 60, ExitCmd{false, "lost the rendezvous"});
  CHECK(table.failure() == "tsunagi-delayline died (exit status 1)");
}

TEST_CASE("process table: the grace after the first failure") {
  ExitLog log;
  ProcessTable table = launcher_table(log);
  CHECK_FALSE(table.failure_grace_over(100 * runner::kFailureGraceNs));
  table.record_exit(3, kNsPerSec, ExitCmd{false, "ranks never registered: [2]"});
  CHECK_FALSE(table.failure_grace_over(kNsPerSec + runner::kFailureGraceNs));
  CHECK(table.failure_grace_over(kNsPerSec + runner::kFailureGraceNs + 1));
}

TEST_CASE("process table: a killed relay's planned exit is ok and fails nothing") {
  ExitLog log;
  ProcessTable table("realnet", log, nullptr);
  ProcessRow rendezvous;
  rendezvous.role = Role::Rendezvous;
  rendezvous.label = "rendezvous";
  table.add(rendezvous);
  ProcessRow relay;
  relay.role = Role::Relay;
  relay.label = "chiba-relay0";
  table.add(relay);
  table.plan_kills({{"chiba-relay0", 2 * kNsPerSec}});
  CHECK(table.row(1).kill_at == 2 * kNsPerSec);
  table.record_exit(1, 2 * kNsPerSec, ExitCmd{true, runner::kKilledByFaults});
  table.record_exit(0, 3 * kNsPerSec, ExitCmd{true, ""});
  const runner::RunSummary summary = table.finish(4 * kNsPerSec);
  CHECK(summary.all_exited_ok);
  CHECK(table.row(1).exit_ok);
  CHECK(table.row(1).exit_reason == runner::kKilledByFaults);
}
