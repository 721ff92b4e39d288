// fork/exec, poll, waitpid. See supervisor.hpp.
#include "supervisor.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "tsunagi/runner/results/regular_file.hpp"

namespace tsunagi::realnet {

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int number = WTERMSIG(status);
    const char* name = sigabbrev_np(number);
    return "killed by signal " + std::to_string(number) +
           (name != nullptr ? std::string(" (SIG") + name + ")" : "");
  }
  return "stopped (status " + std::to_string(status) + ")";
}

Supervisor::~Supervisor() {
  stop_all(std::chrono::milliseconds(2000));
}

std::size_t Supervisor::start(const ChildSpec& spec) {
  if (spec.argv.empty()) throw std::invalid_argument("child " + spec.name + " has no command");
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  int input_fds[2] = {-1, -1};
  if (spec.input_pipe && pipe2(input_fds, O_CLOEXEC) != 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  std::vector<char*> args;
  for (const std::string& arg : spec.argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  // Opened before the fork, so a symlink or FIFO planted at the log's name fails the start
  // instead of redirecting a root daemon's output (regular_file.hpp).
  const int log = spec.log_file.empty()
                      ? open("/dev/null", O_WRONLY | O_CLOEXEC)
                      : runner::open_regular_for_writing(spec.log_file, O_CREAT | O_APPEND);
  if (log < 0) {
    const std::string why = std::strerror(errno);
    for (int fd : {pipe_fds[0], pipe_fds[1], input_fds[0], input_fds[1]})
      if (fd >= 0) close(fd);
    throw std::runtime_error("cannot write " + spec.log_file + " (" + why +
                             "; a symlink or FIFO there is refused)");
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // The child: dies with the launcher, stdout to the pipe, stderr to its log.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    if (spec.nice != 0) setpriority(PRIO_PROCESS, 0, spec.nice);
    if (spec.realtime > 0) {
      sched_param param{};
      param.sched_priority = spec.realtime;
      sched_setscheduler(0, SCHED_RR, &param);
    }
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(log, STDERR_FILENO);
    const int input = spec.input_pipe ? input_fds[0] : open("/dev/null", O_RDONLY);
    if (input >= 0) dup2(input, STDIN_FILENO);
    execvp(args[0], args.data());
    dprintf(STDERR_FILENO, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(pipe_fds[1]);
  close(log);
  if (spec.input_pipe) close(input_fds[0]);
  fcntl(pipe_fds[0], F_SETFL, O_NONBLOCK);
  children_.push_back(Child{spec, pid, pipe_fds[0], input_fds[1], {}, true});
  return children_.size() - 1;
}

void Supervisor::read_output(std::size_t index, std::vector<ChildLine>& lines) {
  Child& child = children_[index];
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(child.out, buffer, sizeof buffer);
    if (n <= 0) {
      if (n == 0) {  // end of its output: it exited (or closed stdout)
        close(child.out);
        child.out = -1;
      }
      break;
    }
    child.partial.append(buffer, static_cast<std::size_t>(n));
    std::size_t newline;
    while ((newline = child.partial.find('\n')) != std::string::npos) {
      lines.push_back({index, child.partial.substr(0, newline)});
      child.partial.erase(0, newline + 1);
    }
  }
}

void Supervisor::poll(std::chrono::milliseconds timeout, std::vector<ChildLine>& lines,
                      std::vector<ChildDeath>& deaths) {
  std::vector<pollfd> fds;
  std::vector<std::size_t> owners;
  for (std::size_t i = 0; i < children_.size(); ++i) {
    if (children_[i].out < 0) continue;
    fds.push_back({children_[i].out, POLLIN, 0});
    owners.push_back(i);
  }
  if (fds.empty()) {
    std::this_thread::sleep_for(timeout);
  } else if (::poll(fds.data(), fds.size(), static_cast<int>(timeout.count())) > 0) {
    for (std::size_t k = 0; k < fds.size(); ++k)
      if (fds[k].revents != 0) read_output(owners[k], lines);
  }
  for (std::size_t i = 0; i < children_.size(); ++i) {
    Child& child = children_[i];
    if (!child.running) continue;
    int status = 0;
    if (waitpid(child.pid, &status, WNOHANG) != child.pid) continue;
    child.running = false;
    if (child.out >= 0) read_output(i, lines);  // its last words
    deaths.push_back(
        {i, describe_wait_status(status), WIFEXITED(status) && WEXITSTATUS(status) == 0});
  }
}

void Supervisor::signal(std::size_t child, int number) {
  if (children_[child].running) kill(children_[child].pid, number);
}

void Supervisor::close_input(std::size_t child) {
  if (children_[child].in >= 0) close(children_[child].in);
  children_[child].in = -1;
}

bool Supervisor::running(std::size_t child) const {
  return children_[child].running;
}
pid_t Supervisor::pid(std::size_t child) const {
  return children_[child].pid;
}
const std::string& Supervisor::name(std::size_t child) const {
  return children_[child].spec.name;
}

void Supervisor::stop_all(std::chrono::milliseconds grace) {
  for (std::size_t i = 0; i < children_.size(); ++i) signal(i, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + grace;
  for (;;) {
    bool any = false;
    for (Child& child : children_) {
      if (!child.running) continue;
      int status = 0;
      if (waitpid(child.pid, &status, WNOHANG) == child.pid) {
        child.running = false;
      } else {
        any = true;
      }
    }
    if (!any) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      for (Child& child : children_)
        if (child.running) kill(child.pid, SIGKILL);
      for (Child& child : children_)
        if (child.running) {
          waitpid(child.pid, nullptr, 0);
          child.running = false;
        }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (Child& child : children_) {
    if (child.out >= 0) close(child.out);
    if (child.in >= 0) close(child.in);
    child.out = child.in = -1;
  }
}

}  // namespace tsunagi::realnet
