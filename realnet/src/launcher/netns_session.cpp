#include "netns_session.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tsunagi::realnet {

void run_tool(const std::vector<std::string>& argv, const std::string& log_file) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    const int log = open(log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log >= 0) {
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
    }
    execvp(args[0], args.data());
    dprintf(STDERR_FILENO, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  std::ifstream in(log_file);
  std::stringstream text;
  text << in.rdbuf();
  std::string tail = text.str();
  if (tail.size() > 600) tail = "..." + tail.substr(tail.size() - 600);
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

std::string NetnsSession::write_batch(const std::string& name,
                                      const std::vector<std::string>& lines) {
  const std::string path = work_dir_ + "/" + name + ".batch";
  std::ofstream out(path);
  for (const std::string& line : lines) out << line << '\n';
  if (!out) throw std::runtime_error("cannot write " + path);
  return path;
}

void NetnsSession::build(Supervisor& supervisor, const std::string& delayline_program,
                         const std::function<bool()>& interrupted) {
  const std::string log = work_dir_ + "/netns-setup.log";
  created_ = true;  // from the first command on, tear_down() has something to do
  run_tool({"ip", "-b", write_batch("netns-root", plan_.root_batch)}, log);
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
    run_tool({"ip", "-n", ns, "-b", write_batch(ns, plan_.ns_batch.at(ns))}, log);
    auto tc = plan_.tc_batch.find(ns);
    if (tc != plan_.tc_batch.end())
      run_tool({"tc", "-n", ns, "-b", write_batch(ns + "-tc", tc->second)}, log);
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
    run_tool({"ip", "-force", "-b", write_batch("netns-teardown", teardown_batch(plan_))},
             work_dir_ + "/netns-teardown.log");
  } catch (const std::exception&) {
    // Some were gone already; remove_stale_namespaces() catches anything left at the next run.
  }
}

}  // namespace tsunagi::realnet
