// Child processes of `tsunagi sweep`: started with posix_spawn, each in its own process group,
// waited for without races against Ctrl-C (the signals are blocked and taken with sigtimedwait).
#pragma once

#include <sys/types.h>

#include <csignal>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tsunagi::app::sweep {

// While alive, SIGINT, SIGTERM, SIGHUP and SIGCHLD are blocked in this process and taken by
// wait_for_signal(); children are started with them unblocked and at their default action.
class BlockedSignals {
 public:
  BlockedSignals();
  ~BlockedSignals();
  BlockedSignals(const BlockedSignals&) = delete;
  BlockedSignals& operator=(const BlockedSignals&) = delete;

  // Waits up to `timeout_s` for one of the signals; returns it (SIGCHLD: some child changed
  // state), or 0 on timeout.
  int wait_for_signal(double timeout_s) const;

 private:
  sigset_t blocked_{};
  sigset_t previous_{};
};

// Starts `program` with `argv` (argv[0] included), stdin from /dev/null, stdout into
// `stdout_file` and stderr into `stderr_file` (both truncated), in a new process group whose id
// is the child's pid. Throws std::runtime_error naming the file or the reason.
pid_t spawn_child(const std::string& program, const std::vector<std::string>& argv,
                  const std::filesystem::path& stdout_file,
                  const std::filesystem::path& stderr_file);

// The exit status of `pid` if it has ended (reaped now), nullopt while it runs. A child killed
// by signal S counts as 128 + S, as in a shell.
std::optional<int> try_reap(pid_t pid);

// Sends `signal` to the child's process group (the child and what it started), or to the child
// alone if the group is gone.
void signal_child(pid_t pid, int signal);

// "/proc/self/exe" resolved, for messages; the program itself is started as /proc/self/exe so
// that a rebuild during a sweep does not mix two binaries.
std::string self_executable();

// An exclusive lock on `file` (created if needed) for the life of the process; false if another
// process holds it.
bool lock_file(const std::filesystem::path& file);

}  // namespace tsunagi::app::sweep
