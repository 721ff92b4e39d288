// Child processes of `tsunagi sweep` (POSIX).
#include "sweep_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "tsunagi/runner/results/regular_file.hpp"

extern char** environ;

namespace tsunagi::app::sweep {

namespace fs = std::filesystem;

namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};

std::string errno_text(int error) {
  return std::strerror(error);
}

// A file it creates never through a link or FIFO planted in the sweep's directory (a sweep
// may run as root); /dev/null and other inputs as they are.
int open_for_child(const fs::path& file, int flags) {
  const int fd = (flags & O_CREAT) != 0 ? runner::open_regular_for_writing(file.string(), flags)
                                        : ::open(file.c_str(), flags | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(file.string() + ": " + errno_text(errno));
  return fd;
}

// Closes the descriptors and releases posix_spawn's objects however spawn_child leaves.
struct SpawnResources {
  std::vector<int> fds;
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attributes{};
  bool have_actions = false;
  bool have_attributes = false;
  ~SpawnResources() {
    for (const int fd : fds) ::close(fd);
    if (have_actions) posix_spawn_file_actions_destroy(&actions);
    if (have_attributes) posix_spawnattr_destroy(&attributes);
  }
};

void check(int error, const char* what) {
  if (error != 0) throw std::runtime_error(std::string(what) + ": " + errno_text(error));
}

}  // namespace

BlockedSignals::BlockedSignals() {
  sigemptyset(&blocked_);
  for (const int signal : kSignals) sigaddset(&blocked_, signal);
  sigprocmask(SIG_BLOCK, &blocked_, &previous_);
}

BlockedSignals::~BlockedSignals() {
  // Take what is pending first, so that unblocking does not deliver a late Ctrl-C.
  const timespec zero{0, 0};
  while (sigtimedwait(&blocked_, nullptr, &zero) > 0) {
  }
  sigprocmask(SIG_SETMASK, &previous_, nullptr);
}

int BlockedSignals::wait_for_signal(double timeout_s) const {
  timespec timeout{};
  timeout.tv_sec = static_cast<time_t>(timeout_s);
  timeout.tv_nsec = static_cast<long>((timeout_s - std::floor(timeout_s)) * 1e9);
  for (;;) {
    const int signal = sigtimedwait(&blocked_, nullptr, &timeout);
    if (signal > 0) return signal;
    if (errno == EAGAIN) return 0;
    if (errno != EINTR) return 0;  // not expected; the caller polls its children anyway
  }
}

pid_t spawn_child(const std::string& program, const std::vector<std::string>& argv,
                  const fs::path& stdout_file, const fs::path& stderr_file) {
  SpawnResources resources;
  const int input = open_for_child("/dev/null", O_RDONLY);
  resources.fds.push_back(input);
  const int output = open_for_child(stdout_file, O_WRONLY | O_CREAT | O_TRUNC);
  resources.fds.push_back(output);
  const int errors = open_for_child(stderr_file, O_WRONLY | O_CREAT | O_TRUNC);
  resources.fds.push_back(errors);

  check(posix_spawn_file_actions_init(&resources.actions), "posix_spawn_file_actions_init");
  resources.have_actions = true;
  check(posix_spawn_file_actions_adddup2(&resources.actions, input, STDIN_FILENO), "dup2 stdin");
  check(posix_spawn_file_actions_adddup2(&resources.actions, output, STDOUT_FILENO), "dup2 stdout");
  check(posix_spawn_file_actions_adddup2(&resources.actions, errors, STDERR_FILENO), "dup2 stderr");

  check(posix_spawnattr_init(&resources.attributes), "posix_spawnattr_init");
  resources.have_attributes = true;
  sigset_t none;
  sigemptyset(&none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (const int signal : kSignals) sigaddset(&defaults, signal);
  sigaddset(&defaults, SIGPIPE);
  check(posix_spawnattr_setsigmask(&resources.attributes, &none), "posix_spawnattr_setsigmask");
  check(posix_spawnattr_setsigdefault(&resources.attributes, &defaults),
        "posix_spawnattr_setsigdefault");
  check(posix_spawnattr_setpgroup(&resources.attributes, 0), "posix_spawnattr_setpgroup");
  check(posix_spawnattr_setflags(&resources.attributes, POSIX_SPAWN_SETSIGMASK |
                                                            POSIX_SPAWN_SETSIGDEF |
                                                            POSIX_SPAWN_SETPGROUP),
        "posix_spawnattr_setflags");

  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int error = posix_spawn(&pid, program.c_str(), &resources.actions, &resources.attributes,
                                args.data(), environ);
  if (error != 0) throw std::runtime_error("cannot start " + program + ": " + errno_text(error));
  return pid;
}

std::optional<int> try_reap(pid_t pid) {
  int status = 0;
  pid_t done = 0;
  do {
    done = ::waitpid(pid, &status, WNOHANG);
  } while (done < 0 && errno == EINTR);
  if (done == 0) return std::nullopt;
  if (done < 0) return 128 + SIGKILL;  // not our child any more: treat it as gone
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return std::nullopt;  // stopped or continued: still there
}

void signal_child(pid_t pid, int signal) {
  if (pid <= 0) return;
  if (::kill(-pid, signal) != 0) ::kill(pid, signal);
}

std::string self_executable() {
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? std::string("/proc/self/exe") : self.string();
}

bool lock_file(const fs::path& file) {
  const int fd = runner::open_regular_for_writing(file.string(), O_RDWR | O_CREAT);
  if (fd < 0) throw std::runtime_error(file.string() + ": " + errno_text(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return false;
  }
  return true;  // fd stays open (and locked) until the process exits
}

}  // namespace tsunagi::app::sweep
