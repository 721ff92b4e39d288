// What the launcher learns from its children: the daemons' status lines and their deaths, put
// in the run's process table. See launch.hpp.
#include <cmath>
#include <sstream>

#include "launch.hpp"

namespace tsunagi::realnet {

void Launch::fill_table() {
  auto add = [&](const PlannedProcess& process, runner::Role role) {
    runner::ProcessRow row;
    row.role = role;
    row.rank = process.rank;
    row.label = process.label;
    table_.add(std::move(row));
  };
  for (const PlannedProcess& node : plan_.nodes) add(node, runner::Role::Node);
  add(plan_.rendezvous, runner::Role::Rendezvous);
  for (const PlannedProcess& relay : plan_.relays) add(relay, runner::Role::Relay);
  child_of_.assign(static_cast<std::size_t>(table_.size()), kNoChild);
  killed_.assign(static_cast<std::size_t>(table_.size()), false);
}

// [[faults]] and --fault kills; their times count on the trace's clock (the epoch). Throws
// std::invalid_argument for a kill of no process of this run.
void Launch::plan_kills() {
  std::vector<Fault> faults = scenario_kills(scenario_);
  for (const std::string& text : options_.faults) {
    Fault fault = parse_fault(text, scenario::process_count(scenario_));
    if (fault.kind == Fault::Kind::Kill) faults.push_back(fault);
  }
  std::vector<runner::PlannedKill> kills;
  for (const Fault& fault : faults)
    kills.push_back({fault.label, static_cast<TimeNs>(std::llround(fault.at_s * 1e9))});
  table_.plan_kills(kills);
}

void Launch::handle(const std::vector<ChildLine>& lines, const std::vector<ChildDeath>& deaths) {
  for (const ChildLine& line : lines) handle_line(line.text);
  for (const ChildDeath& death : deaths) handle_death(death);
}

// "tsunagi-status LABEL clock ...", "... listening ENDPOINT", "... exited ok|failed REASON".
void Launch::handle_line(const std::string& text) {
  std::istringstream words(text);
  std::string tag, label, what, detail;
  words >> tag >> label >> what;
  const int index = table_.find_label(label);
  if (tag != "tsunagi-status" || index < 0) return;
  if (what == "clock" && index == table_.rendezvous_index()) {
    // Time 0 of the trace is the rendezvous's start on its own clock (event_replay.hpp);
    // [[faults]] and deaths are timed on the same scale.
    std::string rest;
    std::getline(words, rest);
    if (const auto stamp = parse_clock_words(rest))
      epoch_ns_ = own_clock_.monotonic_ns + clock_offset(own_clock_, *stamp);
  } else if (what == "listening" && index == table_.rendezvous_index()) {
    words >> rendezvous_endpoint_;
  } else if (what == "exited") {
    words >> detail;
    std::string reason;
    std::getline(words, reason);
    if (!reason.empty() && reason.front() == ' ') reason.erase(0, 1);
    table_.record_exit(index, now(), ExitCmd{detail == "ok", reason});
  }
}

void Launch::handle_death(const ChildDeath& death) {
  if (death.child == slurm_child_) {
    // The script ended before every daemon exited: its own output says why (srun missing,
    // no allocation, a step that failed to start).
    if (!table_.all_exited())
      table_.fail_run_cause(now(), "the Slurm script ended (" + death.how +
                                       ") before every process exited: " + slurm_log_tail() +
                                       "; see " + plan_.work_dir + "/slurm.log");
    return;
  }
  int index = -1;
  for (std::size_t i = 0; i < child_of_.size(); ++i)
    if (child_of_[i] == death.child) index = static_cast<int>(i);
  if (index < 0) {
    if (supervisor_.name(death.child) == "delayline")
      table_.fail_run(now(), "tsunagi-delayline died (" + death.how + ")");
    return;
  }
  if (table_.exited(index)) return;  // stopped after its exit: expected
  const runner::ProcessRow& row = table_.row(index);
  if (killed_[static_cast<std::size_t>(index)] && row.role == runner::Role::Relay) {
    // A relay killed by [[faults]]: the others route around it, the run goes on (as in
    // SimGrid). A killed rank's daemon died: that fails the run (docs/realnet.md).
    table_.record_exit(index, now(), ExitCmd{true, runner::kKilledByFaults});
    return;
  }
  const std::string died = "died (" + death.how + ", pid " +
                           std::to_string(supervisor_.pid(death.child)) + ") before it exited";
  table_.fail_run_cause(
      now(), row.label + " " + died + "; its log: " + plan_.work_dir + "/" + row.label + ".log");
  table_.record_exit(index, now(), ExitCmd{false, died});
}

}  // namespace tsunagi::realnet
