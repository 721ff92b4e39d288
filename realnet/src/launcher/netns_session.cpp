#include "netns_session.hpp"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "tsunagi/runner/results/regular_file.hpp"

namespace tsunagi::realnet {

namespace {

// The log's last `limit` characters, read through the descriptor the tool wrote to (the name
// might point elsewhere by now).
std::string log_tail(int log, std::size_t limit) {
  const off_t size = ::lseek(log, 0, SEEK_END);
  if (size <= 0) return "";
  const off_t from = size > static_cast<off_t>(limit) ? size - static_cast<off_t>(limit) : 0;
  std::string tail(static_cast<std::size_t>(size - from), '\0');
  const ssize_t got = ::pread(log, tail.data(), tail.size(), from);
  tail.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  return (from > 0 ? "..." : "") + tail;
}

// Writes every line into `socket` (the tool's stdin), then ends it. MSG_NOSIGNAL: a tool that
// quits early is an error in its status, not a SIGPIPE for the launcher.
void feed_lines(int socket, const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + '\n';
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(socket, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(socket);
}

}  // namespace

void run_tool(const std::vector<std::string>& argv, const std::string& log_file,
              const std::vector<std::string>& input) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  // Opened here, checked a regular file (no planted link or FIFO), before anything runs.
  const int log = log_file.empty()
                      ? ::open("/dev/null", O_WRONLY | O_CLOEXEC)
                      : runner::open_regular_or_throw(log_file, O_RDWR | O_CREAT | O_APPEND);
  int feed[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, feed) != 0) {
    ::close(log);
    throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
  }
  const pid_t pid = fork();
  if (pid < 0) {
    ::close(log);
    ::close(feed[0]);
    ::close(feed[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  }
  if (pid == 0) {
    dup2(feed[1], STDIN_FILENO);  // a batch comes on stdin (`ip -b -`): no file to plant
    if (log >= 0) {
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
    }
    execvp(args[0], args.data());
    dprintf(STDERR_FILENO, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  ::close(feed[1]);
  feed_lines(feed[0], input);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string tail = log_file.empty() ? "" : log_tail(log, 600);
  ::close(log);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  std::string command;
  for (const std::string& arg : argv) command += (command.empty() ? "" : " ") + arg;
  throw std::runtime_error("`" + command + "` failed (" + describe_wait_status(status) +
                           "): " + tail);
}

NetnsSession::NetnsSession(const NetnsPlan& plan, std::string work_dir)
    : plan_(plan), work_dir_(std::move(work_dir)) {}

NetnsSession::~NetnsSession() {
  tear_down();
}

void NetnsSession::build(Supervisor& supervisor, const std::string& delayline_program,
                         const std::function<bool()>& interrupted) {
  const std::string log = work_dir_ + "/netns-setup.log";
  created_ = true;  // from the first command on, tear_down() has something to do
  run_tool({"ip", "-b", "-"}, log, plan_.root_batch);
  if (!plan_.delay_links.empty()) {
    // The delay line times every frame: it runs at the highest priority of the run.
    ChildSpec spec{"delayline", {delayline_program}, work_dir_ + "/delayline.log", -20, 20};
    const auto args = delay_line_args(plan_);
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    const std::size_t child = supervisor.start(spec);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    bool ready = false;
    while (!ready) {
      std::vector<ChildLine> lines;
      std::vector<ChildDeath> deaths;
      supervisor.poll(std::chrono::milliseconds(50), lines, deaths);
      for (const auto& line : lines) ready = ready || (line.child == child && line.text == "ready");
      if (!ready && !deaths.empty())
        throw std::runtime_error("tsunagi-delayline died (" + deaths.front().how + "); see " +
                                 spec.log_file);
      if (interrupted()) throw std::runtime_error("interrupted while building the network");
      if (!ready && std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("tsunagi-delayline not ready after 20 s; see " + spec.log_file);
    }
  }
  for (const std::string& ns : plan_.namespaces) {
    if (interrupted()) throw std::runtime_error("interrupted while building the network");
    run_tool({"ip", "-n", ns, "-b", "-"}, log, plan_.ns_batch.at(ns));
    auto tc = plan_.tc_batch.find(ns);
    if (tc != plan_.tc_batch.end()) run_tool({"tc", "-n", ns, "-b", "-"}, log, tc->second);
  }
  for (const auto& [ns, argv] : plan_.ns_exec) {
    if (interrupted()) throw std::runtime_error("interrupted while building the network");
    std::vector<std::string> command{"ip", "netns", "exec", ns};
    command.insert(command.end(), argv.begin(), argv.end());
    run_tool(command, log);
  }
}

void NetnsSession::tear_down() {
  if (!created_) return;
  created_ = false;
  try {
    // -force: keep deleting past a namespace that is already gone.
    run_tool({"ip", "-force", "-b", "-"}, work_dir_ + "/netns-teardown.log", teardown_batch(plan_));
  } catch (const std::exception&) {
    // Some were gone already; remove_stale_namespaces() catches anything left at the next run.
  }
}

}  // namespace tsunagi::realnet
