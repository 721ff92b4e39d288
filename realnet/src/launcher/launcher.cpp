// run_realnet: network up, rendezvous, ranks, watch until everyone exited (or something
// failed), stop, network down, replay the event files into the observer.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include <fstream>

#include "../adapter/clock_stamp.hpp"
#include "../adapter/run_secret.hpp"
#include "event_replay.hpp"
#include "launch_plan.hpp"
#include "netns_session.hpp"
#include "run_manifest.hpp"
#include "supervisor.hpp"
#include "tsunagi/realnet/realnet_backend.hpp"
#include "tsunagi/runner/process_table.hpp"

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

struct Tracked {
  std::size_t child = 0;
  bool listening = false;
  bool exited = false;
  bool ok = false;
  std::string endpoint;
  std::string death;  // set when its process died before it exited
  TimeNs died_at = 0;
  bool intended = false;  // killed by [[faults]] (relays): not a failure
};

class Launch {
 public:
  Launch(const scenario::Scenario& scenario, runner::RunObserver& observer,
         const LaunchOptions& options)
      : scenario_(scenario), observer_(observer), options_(options) {}

  runner::RunSummary run();

 private:
  TimeNs now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
               .count() -
           epoch_ns_;
  }
  void start_process(const PlannedProcess& process, const std::string& rendezvous);
  void start_slurm_script();
  void stop_remote_daemons();
  std::string slurm_log_tail() const;
  void wait_for_rendezvous();
  void watch_until_done();
  bool all_exited() const;
  bool is_relay(const std::string& label) const;
  void handle(const std::vector<ChildLine>& lines, const std::vector<ChildDeath>& deaths);
  void fail(const std::string& why) {
    if (failure_.empty()) failure_ = why;
  }
  bool failed() const { return !failure_.empty() || !deaths_.empty(); }
  runner::RunSummary finish();

  const scenario::Scenario& scenario_;
  runner::RunObserver& observer_;
  const LaunchOptions& options_;
  std::int64_t epoch_ns_ = 0;  // the rendezvous's start on this machine's steady clock
  ClockStamp own_clock_;       // this launcher's, to place the rendezvous's start on it
  LaunchPlan plan_;
  RunManifest manifest_;
  Supervisor supervisor_;
  std::map<std::string, Tracked> tracked_;  // by label
  std::map<std::size_t, std::string> child_label_;
  std::set<std::string> killed_;  // labels SIGKILLed by fault injection
  std::string failure_;
  std::vector<std::string> deaths_;  // the root cause when a process died: reported first
  std::chrono::steady_clock::time_point failed_at_{};
};

void Launch::start_process(const PlannedProcess& process, const std::string& rendezvous) {
  ChildSpec spec{process.label,    exec_argv(process, rendezvous), process.log_file, kProcessNice,
                 kProcessRealtime, plan_.mode == "hosts"};
  const std::size_t child = supervisor_.start(spec);
  tracked_[process.label].child = child;
  child_label_[child] = process.label;
}

void Launch::handle(const std::vector<ChildLine>& lines, const std::vector<ChildDeath>& deaths) {
  for (const ChildLine& line : lines) {
    std::istringstream words(line.text);
    std::string tag, label, what, detail;
    words >> tag >> label >> what;
    if (tag != "tsunagi-status" || !tracked_.count(label)) continue;
    Tracked& t = tracked_[label];
    if (what == "clock" && label == plan_.rendezvous.label) {
      // Time 0 of the trace is the rendezvous's start on its own clock (event_replay.hpp);
      // [[faults]] and deaths are timed on the same scale.
      std::string rest;
      std::getline(words, rest);
      if (const auto stamp = parse_clock_words(rest))
        epoch_ns_ = own_clock_.monotonic_ns + clock_offset(own_clock_, *stamp);
    } else if (what == "listening") {
      words >> t.endpoint;
      t.listening = true;
    } else if (what == "exited") {
      words >> detail;
      t.exited = true;
      t.ok = detail == "ok";
      std::string reason;
      std::getline(words, reason);
      if (!t.ok) fail(label + " exited with failure:" + reason);
    }
  }
  for (const ChildDeath& death : deaths) {
    auto it = child_label_.find(death.child);
    if (plan_.mode == "slurm" && it != child_label_.end()) {
      // The script ended before every daemon exited: its own output says why (srun missing,
      // no allocation, a step that failed to start).
      if (!all_exited())
        deaths_.push_back("the Slurm script ended (" + death.how + ") before every process " +
                          "exited: " + slurm_log_tail() + "; see " + plan_.work_dir + "/slurm.log");
      continue;
    }
    if (it == child_label_.end()) {
      if (supervisor_.name(death.child) == "delayline")
        fail("tsunagi-delayline died (" + death.how + ")");
      continue;
    }
    Tracked& t = tracked_[it->second];
    if (t.exited) continue;  // stopped after its exit: expected
    if (killed_.count(it->second) && is_relay(it->second)) {
      // A relay killed by [[faults]]: the others route around it, the run goes on (as in SimGrid).
      t.exited = t.ok = t.intended = true;
      t.death = runner::kKilledByFaults;
      t.died_at = now();
      continue;
    }
    t.death = "died (" + death.how + ", pid " + std::to_string(supervisor_.pid(death.child)) +
              ") before it exited";
    t.died_at = now();
    deaths_.push_back(it->second + " " + t.death + "; its log: " + plan_.work_dir + "/" +
                      it->second + ".log");
  }
}

std::string Launch::slurm_log_tail() const {
  std::ifstream in(plan_.work_dir + "/slurm.log");
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last.empty() ? "slurm.log is empty" : "\"" + last + "\"";
}

void Launch::start_slurm_script() {
  tracked_[plan_.rendezvous.label];
  for (const auto& node : plan_.nodes) tracked_[node.label];
  const std::size_t child = supervisor_.start(
      {"slurm", {"bash", "-c", plan_.slurm_script}, plan_.work_dir + "/slurm.log"});
  for (auto& [label, t] : tracked_) t.child = child;
  child_label_[child] = "slurm";
  observer_.on_progress("realnet: Slurm script started (" + std::to_string(plan_.nodes.size()) +
                        " ranks + rendezvous), log " + plan_.work_dir + "/slurm.log");
}

// Remote daemons do not get the launcher's signals: over ssh the end of their input stops them
// (--stop-on-eof); under Slurm the script's trap sends SIGTERM to every task of the job
// (scancel --signal: srun itself would SIGKILL them). Each stopped daemon records its exit and
// prints it; this waits for those lines.
void Launch::stop_remote_daemons() {
  if (plan_.mode != "hosts" && plan_.mode != "slurm") return;
  std::size_t running = 0;
  for (const auto& [label, t] : tracked_)
    if (!t.exited && t.death.empty()) ++running;
  bool any_child = false;
  for (std::size_t i = 0; i < supervisor_.size(); ++i)
    any_child = any_child || supervisor_.running(i);
  if (running == 0 || !any_child) return;
  if (plan_.mode == "hosts") {
    for (const auto& [label, t] : tracked_) supervisor_.close_input(t.child);
  } else {
    supervisor_.signal(tracked_.begin()->second.child, SIGTERM);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  std::size_t confirmed = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<ChildLine> lines;
    std::vector<ChildDeath> deaths;
    supervisor_.poll(std::chrono::milliseconds(50), lines, deaths);
    std::set<std::string> before;
    for (const auto& [label, t] : tracked_)
      if (t.exited) before.insert(label);
    handle(lines, {});
    for (const auto& [label, t] : tracked_)
      if (t.exited && !before.count(label)) ++confirmed;
    bool any = false;
    for (std::size_t i = 0; i < supervisor_.size(); ++i) any = any || supervisor_.running(i);
    if (confirmed >= running || !any) break;
  }
  std::string silent;
  for (const auto& [label, t] : tracked_)
    if (!t.exited && t.death.empty()) silent += " " + label;
  observer_.on_progress(
      "realnet: stopped " + std::to_string(running) + " remote daemons (" +
      (plan_.mode == "hosts" ? "ssh: end of input" : "Slurm: scancel --signal=TERM") +
      "): " + std::to_string(confirmed) + " confirmed their exit" +
      (silent.empty() ? std::string()
                      : "; no exit line from" + silent + ": see their logs in " + plan_.work_dir));
}

void Launch::wait_for_rendezvous() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  Tracked& rv = tracked_[plan_.rendezvous.label];
  while (!rv.listening) {
    std::vector<ChildLine> lines;
    std::vector<ChildDeath> deaths;
    supervisor_.poll(std::chrono::milliseconds(50), lines, deaths);
    handle(lines, deaths);
    if (failed()) throw std::runtime_error(deaths_.empty() ? failure_ : deaths_.front());
    if (g_interrupt != 0) throw std::runtime_error("interrupted before the ranks started");
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("the rendezvous did not listen within 30 s; see " +
                               plan_.rendezvous.log_file);
  }
}

// Everyone exited. The end of the run is the core's: the rendezvous releases every rank and
// relay once all acknowledged the shutdown, so no process is waited for here.
bool Launch::all_exited() const {
  return std::all_of(tracked_.begin(), tracked_.end(),
                     [](const auto& entry) { return entry.second.exited; });
}

bool Launch::is_relay(const std::string& label) const {
  return std::any_of(plan_.relays.begin(), plan_.relays.end(),
                     [&](const PlannedProcess& p) { return p.label == label; });
}

void Launch::watch_until_done() {
  std::vector<Fault> kills = scenario_kills(scenario_);
  for (const std::string& text : options_.faults) {
    Fault fault = parse_fault(text, scenario::process_count(scenario_));
    if (fault.kind == Fault::Kind::Kill) kills.push_back(fault);
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(options_.timeout_s);
  // After a failure the others get a moment to exit on their own (the rendezvous's failure
  // reaches the nodes as a lost connection), then they are stopped.
  const auto grace = std::chrono::seconds(2);
  for (;;) {
    std::vector<ChildLine> lines;
    std::vector<ChildDeath> deaths;
    supervisor_.poll(std::chrono::milliseconds(50), lines, deaths);
    handle(lines, deaths);
    const auto clock = std::chrono::steady_clock::now();
    for (auto it = kills.begin(); it != kills.end();) {
      // [[faults]] times count on the trace's clock (the epoch), not from the last start.
      if (static_cast<double>(now()) < it->at_s * 1e9) {
        ++it;
        continue;
      }
      const std::string label = it->label;
      observer_.on_progress("realnet: fault injection: SIGKILL to " + label);
      supervisor_.signal(tracked_[label].child, SIGKILL);
      killed_.insert(label);
      it = kills.erase(it);
    }
    if (all_exited()) return;
    if (g_interrupt != 0)
      return fail(std::string("interrupted by ") + (g_interrupt == SIGINT ? "SIGINT" : "SIGTERM"));
    if (failed()) {
      if (failed_at_ == std::chrono::steady_clock::time_point{}) failed_at_ = clock;
      if (clock - failed_at_ > grace) return;
    }
    if (clock > deadline) {
      std::string running;
      for (const auto& [label, t] : tracked_)
        if (!t.exited) running += " " + label;
      return fail("timed out after " + std::to_string(options_.timeout_s) +
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
  if (plan_.mode != "slurm")
    write_manifest(plan_.work_dir, manifest_);  // the script writes its own
  if (plan_.mode == "netns" && geteuid() != 0)
    throw std::runtime_error(
        "--net netns needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN); use --net loopback");
  std::optional<NetnsSession> network;
  try {
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
      tracked_[plan_.rendezvous.label];
      start_process(plan_.rendezvous, "");
      wait_for_rendezvous();
      const std::string rendezvous = tracked_[plan_.rendezvous.label].endpoint;
      for (const auto& relay : plan_.relays) start_process(relay, rendezvous);
      for (const auto& node : plan_.nodes) start_process(node, rendezvous);
      observer_.on_progress(
          "realnet: " + std::to_string(plan_.nodes.size() + plan_.relays.size() + 1) +
          " processes started (" + plan_.mode + "), rendezvous at " + rendezvous);
    }
    watch_until_done();
  } catch (const std::exception& error) {
    fail(error.what());
  }
  stop_remote_daemons();
  supervisor_.stop_all(std::chrono::seconds(3));
  if (network) network->tear_down();
  return finish();
}

runner::RunSummary Launch::finish() {
  std::vector<ProcessRecord> records = manifest_records(manifest_);
  for (ProcessRecord& record : records) {
    if (record.events_file.empty()) continue;  // absent: the manifest says why
    const Tracked& t = tracked_[record.label];
    record.synthesize_exit = true;
    record.intended = t.intended;
    record.died_at = t.died_at != 0 ? t.died_at : now();
    record.death = !t.death.empty() ? t.death
                                    : "stopped by the launcher: " +
                                          (deaths_.empty() ? failure_ : deaths_.front());
  }
  const ReplayOutcome replay = replay_run(manifest_, records, observer_);
  for (const std::string& problem : replay.problems) fail(problem);
  if (!deaths_.empty()) failure_ = deaths_.front();  // the cause of whatever failed after it
  return replayed_summary(replay, failure_, plan_.mode);
}

}  // namespace

runner::RunSummary run_realnet(const scenario::Scenario& scenario, runner::RunObserver& observer,
                               const LaunchOptions& options) {
  Launch launch(scenario, observer, options);
  return launch.run();
}

}  // namespace tsunagi::realnet
