// Starts the run's child processes and watches them: their stdout lines ("tsunagi-status ..."),
// their deaths, and stops them at the end. Children die with the launcher (PR_SET_PDEATHSIG),
// so even a launcher killed with SIGKILL leaves no process behind. Only processes started here
// are ever signalled, always by their pid.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace tsunagi::realnet {

struct ChildSpec {
  std::string name;  // for messages: "r3", "rendezvous", "delayline"
  std::vector<std::string> argv;
  std::string log_file;  // stderr goes here (appended)
  // Scheduling priority (nice value) of the child; negative values need root and are ignored
  // without it.
  int nice = 0;
  // > 0: SCHED_RR at this real-time priority (root only; ignored without it). The kernel's
  // real-time throttling (sched_rt_runtime_us) still leaves 5% of each second to others.
  int realtime = 0;
  // Standard input is a pipe held open by the supervisor until close_input (ssh children: its
  // end reaches the remote daemon as end of input, --stop-on-eof); otherwise /dev/null.
  bool input_pipe = false;
};

struct ChildLine {
  std::size_t child = 0;
  std::string text;
};

struct ChildDeath {
  std::size_t child = 0;
  std::string how;     // "exit status 1", "killed by signal 9 (SIGKILL)"
  bool clean = false;  // exit status 0
};

class Supervisor {
 public:
  Supervisor() = default;
  ~Supervisor();  // stops whatever still runs
  Supervisor(const Supervisor&) = delete;
  Supervisor& operator=(const Supervisor&) = delete;

  // Starts a child; returns its index. Throws std::runtime_error when fork/exec fails.
  std::size_t start(const ChildSpec& spec);
  // Waits up to `timeout` for output or deaths; returns what happened since the last call.
  void poll(std::chrono::milliseconds timeout, std::vector<ChildLine>& lines,
            std::vector<ChildDeath>& deaths);
  void signal(std::size_t child, int number);
  // Closes the child's input pipe (ChildSpec::input_pipe); nothing for other children.
  void close_input(std::size_t child);
  bool running(std::size_t child) const;
  pid_t pid(std::size_t child) const;
  const std::string& name(std::size_t child) const;
  std::size_t size() const { return children_.size(); }
  // SIGTERM to every running child, SIGKILL to those still running after `grace`; reaps all.
  void stop_all(std::chrono::milliseconds grace);

 private:
  struct Child {
    ChildSpec spec;
    pid_t pid = -1;
    int out = -1;         // read end of its stdout
    int in = -1;          // write end of its stdin (input_pipe)
    std::string partial;  // a line not yet complete
    bool running = false;
  };
  void read_output(std::size_t index, std::vector<ChildLine>& lines);
  std::vector<Child> children_;
};

// "killed by signal 9 (SIGKILL)" / "exit status 3" from a waitpid status.
std::string describe_wait_status(int status);

}  // namespace tsunagi::realnet
