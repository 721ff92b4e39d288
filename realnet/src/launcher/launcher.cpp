// run_realnet: network up, rendezvous, ranks, watch until everyone exited (or something
// failed), stop, network down, replay the event files into the observer. See launch.hpp.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "../adapter/run_secret.hpp"
#include "event_replay.hpp"
#include "host_costs.hpp"
#include "launch.hpp"
#include "netns_session.hpp"

namespace tsunagi::realnet {
namespace fs = std::filesystem;

namespace {

// The run's processes measure real RTTs and race each other the way the scenario's hosts would;
// on a shared machine (2 cores, builds running) scheduling delays of milliseconds would decide
// those races instead. Raised priority (root only) keeps their wake-ups prompt; they are event
// driven and mostly idle, so nothing else starves (docs/realnet.md, "latency scale").
constexpr int kProcessNice = -15;
constexpr int kProcessRealtime = 10;

volatile sig_atomic_t g_interrupt = 0;
void on_interrupt(int number) {
  g_interrupt = number;
}

// SIGINT/SIGTERM end the run cleanly instead of killing the launcher with its namespaces up.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupt = 0;
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~InterruptGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

}  // namespace

TimeNs Launch::now() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
             .count() -
         epoch_ns_;
}

void Launch::start_process(const PlannedProcess& process, const std::string& rendezvous) {
  ChildSpec spec{process.label,    exec_argv(process, rendezvous), process.log_file, kProcessNice,
                 kProcessRealtime, plan_.mode == "hosts"};
  const std::size_t child = supervisor_.start(spec);
  child_of_[static_cast<std::size_t>(table_.find_label(process.label))] = child;
}

void Launch::wait_for_rendezvous() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (rendezvous_endpoint_.empty()) {
    std::vector<ChildLine> lines;
    std::vector<ChildDeath> deaths;
    supervisor_.poll(std::chrono::milliseconds(50), lines, deaths);
    handle(lines, deaths);
    if (table_.failed()) throw std::runtime_error(table_.failure());
    if (g_interrupt != 0) throw std::runtime_error("interrupted before the ranks started");
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("the rendezvous did not listen within 30 s; see " +
                               plan_.rendezvous.log_file);
  }
}

// SIGKILL to every process whose planned kill ([[faults]], --fault kill) is due.
void Launch::kill_due_processes() {
  for (int i = 0; i < table_.size(); ++i) {
    const runner::ProcessRow& row = table_.row(i);
    if (row.kill_at < 0 || killed_[static_cast<std::size_t>(i)] || now() < row.kill_at) continue;
    observer_.on_progress("realnet: fault injection: SIGKILL to " + row.label);
    supervisor_.signal(child_of_[static_cast<std::size_t>(i)], SIGKILL);
    killed_[static_cast<std::size_t>(i)] = true;
  }
}

// Until everyone exited: the end of the run is the core's (the rendezvous releases every rank
// and relay once all acknowledged the shutdown), so no process is waited for beyond that. After
// a failure the others get the table's grace to exit on their own (the rendezvous's failure
// reaches the nodes as a lost connection); then they are stopped.
void Launch::watch_until_done() {
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(options_.timeout_s);
  for (;;) {
    std::vector<ChildLine> lines;
    std::vector<ChildDeath> deaths;
    supervisor_.poll(std::chrono::milliseconds(50), lines, deaths);
    handle(lines, deaths);
    kill_due_processes();
    if (table_.all_exited()) return;
    if (g_interrupt != 0)
      return table_.fail_run(
          now(), std::string("interrupted by ") + (g_interrupt == SIGINT ? "SIGINT" : "SIGTERM"));
    if (table_.failure_grace_over(now())) return;
    if (std::chrono::steady_clock::now() > deadline) {
      std::string running;
      for (int i = 0; i < table_.size(); ++i)
        if (!table_.exited(i)) running += " " + table_.row(i).label;
      return table_.fail_run(now(), "timed out after " + std::to_string(options_.timeout_s) +
                                        " s; still running:" + running);
    }
  }
}

runner::RunSummary Launch::run() {
  InterruptGuard interrupts;
  epoch_ns_ = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::steady_clock::now().time_since_epoch())
                  .count();
  const int stale = remove_stale_namespaces();
  if (stale > 0)
    observer_.on_progress("realnet: removed " + std::to_string(stale) + " namespaces of dead runs");
  const DaemonPaths paths = find_daemons(options_);
  fs::create_directories(options_.work_dir);
  if (options_.secret_file.empty())
    write_run_secret(run_secret_path(options_));  // before any daemon starts and reads it
  plan_ = make_launch_plan(scenario_, options_, paths, "tsg" + std::to_string(getpid()) + "-");
  manifest_ = make_manifest(plan_, scenario_, options_);
  // Once, and even with --quiet: the run's makespan leaves out what the scenario asked for.
  if (const std::string note = host_costs_note(scenario_.protocol.costs); !note.empty())
    std::cerr << note << '\n';
  fill_table();  // before anything can fail: finish() reads every row
  if (plan_.mode != "slurm")
    write_manifest(plan_.work_dir, manifest_);  // the script writes its own
  if (plan_.mode == "netns" && geteuid() != 0)
    throw std::runtime_error(
        "--net netns needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN); use --net loopback");
  std::optional<NetnsSession> network;
  try {
    plan_kills();
    if (plan_.netns) {
      const auto t0 = std::chrono::steady_clock::now();
      network.emplace(*plan_.netns, plan_.work_dir);
      network->build(supervisor_, paths.delayline, [] { return g_interrupt != 0; });
      std::ostringstream line;
      line << "realnet: netns network up: " << plan_.netns->namespaces.size() << " namespaces, "
           << plan_.netns->veth_links << " veth links, " << plan_.netns->delay_links.size()
           << " delay lines (latency x" << plan_.netns->latency_scale << ") in "
           << std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() << " s";
      observer_.on_progress(line.str());
    }
    // Until the rendezvous tells its start (its clock line), time counts from here.
    const auto start = std::chrono::steady_clock::now();
    epoch_ns_ =
        std::chrono::duration_cast<std::chrono::nanoseconds>(start.time_since_epoch()).count();
    own_clock_ = clock_stamp(start);
    if (plan_.mode == "slurm") {
      start_slurm_script();
    } else {
      start_process(plan_.rendezvous, "");
      wait_for_rendezvous();
      const std::string rendezvous = rendezvous_endpoint_;
      for (const auto& relay : plan_.relays) start_process(relay, rendezvous);
      for (const auto& node : plan_.nodes) start_process(node, rendezvous);
      observer_.on_progress(
          "realnet: " + std::to_string(plan_.nodes.size() + plan_.relays.size() + 1) +
          " processes started (" + plan_.mode + "), rendezvous at " + rendezvous);
    }
    watch_until_done();
  } catch (const std::exception& error) {
    table_.fail_run(now(), error.what());
  }
  stop_remote_daemons();
  supervisor_.stop_all(std::chrono::seconds(3));
  if (network) network->tear_down();
  return finish();
}

// The table ends the run: whoever still ran was stopped by the launcher. Each daemon's exit is
// its event file's; the table's row gives the one a daemon could not write (it died, or was
// stopped), on the same clock as the trace.
runner::RunSummary Launch::finish() {
  runner::RunSummary summary = table_.finish(now(), "stopped by the launcher: " + table_.failure());
  std::vector<ProcessRecord> records = manifest_records(manifest_);
  for (ProcessRecord& record : records) {
    if (record.events_file.empty()) continue;  // absent: the manifest says why
    const runner::ProcessRow& row = table_.row(table_.find_label(record.label));
    record.synthesize_exit = true;
    record.intended = row.exit_ok;
    record.died_at = row.exited_at;
    record.death = row.exit_reason;
  }
  return with_replay(summary, replay_run(manifest_, records, observer_), plan_.mode);
}

runner::RunSummary run_realnet(const scenario::Scenario& scenario, runner::RunObserver& observer,
                               const LaunchOptions& options) {
  Launch launch(scenario, observer, options);
  return launch.run();
}

}  // namespace tsunagi::realnet
