// Same scenario, same scripts -> the same observer calls, in the same order, at the same times.
// SimGrid allows one run per OS process, so each run happens in a forked child.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include <catch2/catch.hpp>

#include "scripted_process.hpp"
#include "test_support.hpp"

using namespace tsunagi;

namespace {

// Every rank connects to every other one, sends a frame whose size depends on both ranks,
// probes everyone, traces what it receives and exits when all of that is done.
std::string busy_run_log() {
  const scenario::Scenario s = test::three_level_scenario();
  const int ranks = scenario::process_count(s);
  test::RecordingObserver observer;
  test::ScriptedRun run;
  std::vector<int> pending(static_cast<std::size_t>(ranks), 0);
  for (Rank r = 0; r < ranks; ++r) {
    run.scripts[r] = [&s, &pending, ranks](test::ScriptedProcess& self, const Input& input) {
      int& left = pending[static_cast<std::size_t>(self.rank())];
      if (std::holds_alternative<StartedInput>(input.event)) {
        for (Rank peer = 0; peer < ranks; ++peer) {
          if (peer == self.rank()) continue;
          self.command(ConnectCmd{static_cast<ConnId>(peer) + 1, test::endpoint_of(s, peer)});
          self.command(
              ProbeRttCmd{static_cast<std::uint64_t>(peer), test::endpoint_of(s, peer), 64});
        }
        left = 3 * (ranks - 1);  // a probe result, a connect, a frame in, per peer
        return;
      }
      if (const auto* connected = std::get_if<ConnectedInput>(&input.event)) {
        const auto size = static_cast<std::uint64_t>(1000 * (self.rank() + 1)) * connected->conn;
        self.command(SendCmd{connected->conn, Bytes{1, 2}, size});
      }
      if (const auto* received = std::get_if<ReceivedInput>(&input.event))
        self.command(TraceCmd{"frame", {{"filler", received->filler}}});
      if (const auto* rtt = std::get_if<RttMeasuredInput>(&input.event))
        self.command(ReportCmd{"rtt." + std::to_string(rtt->probe), rtt->rtt});
      const bool counts = std::holds_alternative<ConnectedInput>(input.event) ||
                          std::holds_alternative<ReceivedInput>(input.event) ||
                          std::holds_alternative<RttMeasuredInput>(input.event);
      if (counts && --left == 0) self.command(ExitCmd{true, "all done"});
    };
  }
  run.run(s, observer);
  std::string log;
  for (const auto& line : observer.log) log += line + "\n";
  log += "end " + std::to_string(run.summary.end) + "\n";
  return log;
}

std::string run_in_child(std::string (*body)()) {
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(fds[0]);
    const std::string out = body();
    std::size_t written = 0;
    while (written < out.size()) {
      const ssize_t n = write(fds[1], out.data() + written, out.size() - written);
      if (n <= 0) _exit(2);
      written += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buffer[4096];
  ssize_t n;
  while ((n = read(fds[0], buffer, sizeof buffer)) > 0)
    out.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  return out;
}

}  // namespace

TEST_CASE("determinism: two runs of the same busy scenario report identically") {
  const std::string first = run_in_child(&busy_run_log);
  const std::string second = run_in_child(&busy_run_log);
  CHECK(first.size() > 1000);
  CHECK(first.find("exit r6") != std::string::npos);
  CHECK(first == second);
}
