// Daemons on other machines (--hosts over ssh, Slurm): starting the batch script, and stopping
// what still runs at the end. See launch.hpp.
#include <signal.h>

#include <fstream>

#include "launch.hpp"

namespace tsunagi::realnet {

std::string Launch::slurm_log_tail() const {
  std::ifstream in(plan_.work_dir + "/slurm.log");
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last.empty() ? "slurm.log is empty" : "\"" + last + "\"";
}

void Launch::start_slurm_script() {
  slurm_child_ = supervisor_.start(
      {"slurm", {"bash", "-c", plan_.slurm_script}, plan_.work_dir + "/slurm.log"});
  child_of_.assign(child_of_.size(), slurm_child_);
  observer_.on_progress("realnet: Slurm script started (" + std::to_string(plan_.nodes.size()) +
                        " ranks + rendezvous), log " + plan_.work_dir + "/slurm.log");
}

// Remote daemons do not get the launcher's signals: over ssh the end of their input stops them
// (--stop-on-eof); under Slurm the script's trap sends SIGTERM to every task of the job
// (scancel --signal: srun itself would SIGKILL them). Each stopped daemon records its exit and
// prints it; this waits for those lines.
void Launch::stop_remote_daemons() {
  if (plan_.mode != "hosts" && plan_.mode != "slurm") return;
  auto running_rows = [&] {
    std::vector<int> rows;
    for (int i = 0; i < table_.size(); ++i)
      if (!table_.exited(i)) rows.push_back(i);
    return rows;
  };
  auto any_child = [&] {
    for (std::size_t i = 0; i < supervisor_.size(); ++i)
      if (supervisor_.running(i)) return true;
    return false;
  };
  const std::vector<int> running = running_rows();
  if (running.empty() || !any_child()) return;
  if (plan_.mode == "hosts") {
    for (std::size_t child : child_of_) supervisor_.close_input(child);
  } else {
    supervisor_.signal(slurm_child_, SIGTERM);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    std::vector<ChildLine> lines;
    std::vector<ChildDeath> deaths;
    supervisor_.poll(std::chrono::milliseconds(50), lines, deaths);
    handle(lines, {});
    if (running_rows().empty() || !any_child()) break;
  }
  const std::vector<int> silent = running_rows();
  std::string labels;
  for (int i : silent) labels += " " + table_.row(i).label;
  observer_.on_progress(
      "realnet: stopped " + std::to_string(running.size()) + " remote daemons (" +
      (plan_.mode == "hosts" ? "ssh: end of input" : "Slurm: scancel --signal=TERM") +
      "): " + std::to_string(running.size() - silent.size()) + " confirmed their exit" +
      (labels.empty() ? std::string()
                      : "; no exit line from" + labels + ": see their logs in " + plan_.work_dir));
}

}  // namespace tsunagi::realnet
