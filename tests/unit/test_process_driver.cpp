// The shared half of every backend adapter: the process table (order, exits, kills, counts,
// progress) and the driver (one input at a time, exceptions, accepted ids). The adapter here is a
// test double that performs commands into a log; the real ones live in sim/ and realnet/.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "tsunagi/model/messages.hpp"
#include "tsunagi/runner/driver/driven_process.hpp"
#include "tsunagi/runner/driver/interrupt.hpp"

using namespace tsunagi;
using runner::ProcessRow;
using runner::ProcessTable;
using runner::Role;

namespace {

struct LogObserver final : runner::RunObserver {
  std::vector<std::string> lines;
  void on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) override {
    lines.push_back("trace " + proc + " " + std::to_string(now) + " " + trace.kind);
  }
  void on_report(const std::string& proc, TimeNs, const ReportCmd& report) override {
    lines.push_back("report " + proc + " " + report.key);
  }
  void on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) override {
    lines.push_back("exit " + proc + " " + std::to_string(now) + (exit.ok ? " ok " : " failed ") +
                    exit.reason);
  }
  void on_backend_count(const std::string& key, double value) override {
    lines.push_back("count " + key + " " + std::to_string(static_cast<long>(value)));
  }
  void on_progress(const std::string& line) override { lines.push_back("progress " + line); }
  void on_message(const std::string& proc, TimeNs now, const runner::MessageEvent& m) override {
    lines.push_back("message " + proc + " " + std::to_string(now) +
                    (m.delivered ? " arrived " : " left ") + std::to_string(m.from) + "->" +
                    std::to_string(m.to) + " seq " + std::to_string(m.seq) + " tag " +
                    std::to_string(m.tag) + " bytes " + std::to_string(m.bytes));
  }
};

ProcessRow rank_row(Rank rank) {
  return {Role::Node, rank, "r" + std::to_string(rank), "h" + std::to_string(rank) + ":0", "h", ""};
}

ProcessTable small_table(LogObserver& log) {
  ProcessTable table("toy", log, std::make_shared<ProtocolConfig>());
  table.add(rank_row(0));
  table.add(rank_row(1));
  table.add({Role::Rendezvous, kNoRank, "rendezvous", "rv:0", "rv", "siteA"});
  table.add({Role::Relay, kNoRank, "a-relay0", "a-relay0:0", "a-relay0", "siteA"});
  return table;
}

// A core that answers each input by a script: trace its kind, and on some inputs more.
class ScriptCore final : public Process {
 public:
  std::function<void(ScriptCore&, const Input&)> script;
  void handle(Input& input) override { script(*this, input); }
  void command(Command c) { emit(std::move(c)); }
};

// The adapter double: performs commands into a log; a ConnectCmd is refused at once from inside
// the command (as an unknown endpoint is on every backend), which must not re-enter the core.
class ToyAdapter final : public runner::DrivenProcess<ToyAdapter> {
 public:
  ToyAdapter(ProcessTable& table, int index, std::unique_ptr<Process> core)
      : DrivenProcess(table, index, std::move(core)) {}
  TimeNs clock = 0;
  std::vector<std::string> performed;
  void start() { deliver(driver_.started_input()); }
  void input(InputEvent event) { deliver(std::move(event)); }
  runner::ProcessDriver& driver() { return driver_; }

  TimeNs now() const { return clock; }
  void connect(const ConnectCmd& cmd) {
    performed.push_back("connect " + std::to_string(cmd.conn));
    deliver(ConnectFailedInput{cmd.conn, ConnectFailure::Unreachable});
    performed.push_back("connect done");
  }
  void send(SendCmd&) { performed.push_back("send"); }
  void close(ConnId, bool) { performed.push_back("close"); }
  void arm_timer(const ArmTimerCmd&) { performed.push_back("arm"); }
  void start_rtt_probe(const ProbeRttCmd&) { throw std::runtime_error("probe broke"); }
  void abandon_rtt_probe(std::uint64_t) {}
  void wake_at(TimeNs) {}
  bool has_connection(ConnId) const { return true; }
  void start_throughput_probe(const ProbeThroughputCmd& cmd) {
    performed.push_back("throughput " + std::to_string(cmd.probe));
  }
  void apply_window(const SetWindowCmd& cmd) {
    performed.push_back("window " + std::to_string(cmd.send_buffer));
  }
  void end_throughput(std::uint64_t probe, TimeNs elapsed) {
    throughput_measured(probe, 1000, elapsed, true);
  }
  void compute(const ComputeCmd&) {}
  void exit_process(const ExitCmd& exit) {
    performed.push_back("exit");
    driver_.exit(now(), exit);
  }
};

}  // namespace

TEST_CASE("process table: rows in one order, endpoints unique, rendezvous told to the others") {
  LogObserver log;
  ProcessTable table = small_table(log);
  CHECK(table.size() == 4);
  CHECK(table.rank_count() == 2);
  CHECK(table.rendezvous_index() == 2);
  CHECK(table.find("rv:0") == 2);
  CHECK(table.find("nowhere:0") == -1);
  CHECK(table.started_input(0).rendezvous == "rv:0");
  CHECK(table.started_input(3).rendezvous == "rv:0");  // relays register too
  CHECK(table.started_input(2).rendezvous.empty());
  CHECK(table.started_input(2).site == "siteA");

  CHECK_THROWS_AS(table.add(rank_row(2)), std::logic_error);  // a rank after the rendezvous
  ProcessTable other("toy", log, nullptr);
  other.add(rank_row(3));
  CHECK_THROWS_AS(other.add(rank_row(3)), std::logic_error);  // ranks increase
  other.add({Role::Rendezvous, kNoRank, "rendezvous", "rv:0", "rv", ""});
  CHECK_THROWS_AS(other.add({Role::Rendezvous, kNoRank, "rv2", "rv:1", "rv", ""}),
                  std::logic_error);
  CHECK_THROWS_AS(other.add({Role::Relay, kNoRank, "x", "rv:0", "x", ""}), std::logic_error);
}

TEST_CASE("process table: the first failure is the run's, finish fails who never exited") {
  LogObserver log;
  ProcessTable table = small_table(log);
  CHECK(table.record_exit(1, 50, ExitCmd{false, "lost"}));
  CHECK_FALSE(table.record_exit(1, 60, ExitCmd{true, ""}));  // once only
  CHECK(table.record_exit(0, 70, ExitCmd{false, ""}));
  CHECK(table.live_process_at("h0:0") == -1);
  CHECK(table.live_process_at("rv:0") == 2);
  table.count("inference.rtt_probes", 3);
  const runner::RunSummary summary = table.finish(900);
  CHECK_FALSE(summary.all_exited_ok);
  CHECK(summary.failure == "r1 failed: lost");
  CHECK(summary.end == 900);  // the rendezvous and the relay were failed at the clock
  CHECK(table.all_exited());
  const std::vector<std::string> tail(log.lines.end() - 4, log.lines.end());
  CHECK(tail[0] ==
        "exit rendezvous 900 failed still waiting when the simulation ran out of events");
  CHECK(tail[2] == "count inference.rtt_probes 3");
  CHECK(tail[3] == "count inference.throughput_probes 0");  // reported even when zero
}

TEST_CASE("process table: [[faults]] kills name a process or are rejected") {
  LogObserver log;
  ProcessTable table = small_table(log);
  table.plan_kills({{"a-relay0", 20 * kNsPerMs}, {"r1", 5}});
  CHECK(table.row(3).kill_at == 20 * kNsPerMs);
  CHECK(table.row(1).kill_at == 5);
  CHECK(table.row(0).kill_at == -1);
  CHECK_THROWS_AS(table.plan_kills({{"b-relay7", 1}}), std::invalid_argument);
}

TEST_CASE("host slots: ranks of one host count up, a missing host is named") {
  CHECK(runner::host_slots({0, 0, 0, 1, 1, 2}, 3) == std::vector<int>{0, 1, 2, 0, 1, 0});
  CHECK(runner::host_slots({}, 0).empty());
  CHECK(runner::host_slots({4, 4}, 5) == std::vector<int>{0, 1});
  CHECK_THROWS_AS(runner::host_slots({0, 3}, 3), std::invalid_argument);
  CHECK_THROWS_AS(runner::host_slots({-1}, 3), std::invalid_argument);
}

TEST_CASE("driver: an input that arises while commands run waits for them (no re-entry)") {
  LogObserver log;
  ProcessTable table = small_table(log);
  auto core = std::make_unique<ScriptCore>();
  std::vector<std::string> seen;
  core->script = [&seen](ScriptCore& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      seen.push_back("started");
      self.command(ConnectCmd{7, "nowhere:0"});
      self.command(TraceCmd{"after_connect", {}});
    } else if (std::holds_alternative<ConnectFailedInput>(input.event)) {
      seen.push_back("failed");
      self.command(ExitCmd{true, "done"});
      self.command(TraceCmd{"never", {}});  // nothing after the exit is performed
    }
  };
  ToyAdapter adapter(table, 0, std::move(core));
  adapter.clock = 42;
  adapter.start();
  CHECK(seen == std::vector<std::string>{"started", "failed"});
  CHECK(adapter.performed == std::vector<std::string>{"connect 7", "connect done", "exit"});
  // The first input also brings the first progress line.
  CHECK(log.lines ==
        std::vector<std::string>{"progress toy: t=0.000 s, registering: 0 connects to the "
                                 "rendezvous retried; 2 of 2 ranks running, 1 inputs",
                                 "trace r0 42 after_connect", "exit r0 42 ok done"});
  CHECK(adapter.driver().exited());
  adapter.input(TimerFiredInput{1});  // after the exit: dropped
  CHECK(seen.size() == 2);
}

TEST_CASE("driver: an exception in a command fails this process only, with the reason") {
  LogObserver log;
  ProcessTable table = small_table(log);
  auto core = std::make_unique<ScriptCore>();
  core->script = [](ScriptCore& self, const Input&) { self.command(ProbeRttCmd{1, "h1:0", 64}); };
  ToyAdapter adapter(table, 1, std::move(core));
  adapter.start();
  CHECK(adapter.driver().exited());
  CHECK(log.lines.back() == "exit r1 0 failed exception: probe broke");
  CHECK_FALSE(table.exited(0));
  table.report_counts();  // the probe was counted before the adapter broke
  CHECK(log.lines.back() == "count inference.throughput_probes 0");
  CHECK(log.lines[log.lines.size() - 2] == "count inference.rtt_probes 1");
}

TEST_CASE("driver: after Ctrl-C each process stops at its next input, the run says when") {
  LogObserver log;
  ProcessTable table = small_table(log);
  int handled = 0;
  auto make_core = [&handled] {
    auto core = std::make_unique<ScriptCore>();
    core->script = [&handled](ScriptCore&, const Input&) { ++handled; };
    return core;
  };
  ToyAdapter first(table, 0, make_core());
  ToyAdapter second(table, 1, make_core());
  first.start();
  second.start();
  CHECK(handled == 2);
  runner::request_interrupt();
  second.clock = 7 * kNsPerSec;
  second.input(TimerFiredInput{1});
  first.clock = 9 * kNsPerSec;
  first.input(TimerFiredInput{1});
  runner::clear_interrupt();
  CHECK(handled == 2);  // neither core saw the input that came after the signal
  CHECK(first.driver().exited());
  CHECK(second.driver().exited());
  const runner::RunSummary summary = table.finish(10 * kNsPerSec);
  CHECK_FALSE(summary.all_exited_ok);
  CHECK(summary.failure == "r1 failed: interrupted (SIGINT)");
  CHECK(summary.interrupted_at == 7 * kNsPerSec);  // the first process that saw it
}

TEST_CASE("driver: accepted connections are numbered 1, 2, ... with the accepted bit") {
  LogObserver log;
  ProcessTable table = small_table(log);
  runner::ProcessDriver driver(table, 0, nullptr);
  CHECK(driver.next_accepted_conn() == (kAcceptedConnBit | 1));
  CHECK(driver.next_accepted_conn() == (kAcceptedConnBit | 2));
}

TEST_CASE("driver: one probe per id in flight, a probe of no bytes fails, ends count once") {
  LogObserver log;
  ProcessTable table = small_table(log);
  auto core = std::make_unique<ScriptCore>();
  std::vector<std::string> results;
  core->script = [&results](ScriptCore& self, const Input& input) {
    if (std::holds_alternative<StartedInput>(input.event)) {
      self.command(ProbeThroughputCmd{5, "h1:0", 1000});
      self.command(ProbeThroughputCmd{5, "h1:0", 1000});  // the same id again: fails at once
      self.command(ProbeThroughputCmd{6, "h1:0", 0});     // nothing to measure: fails at once
    } else if (const auto* done = std::get_if<ThroughputMeasuredInput>(&input.event)) {
      results.push_back(std::to_string(done->probe) + (done->ok ? " ok " : " failed ") +
                        std::to_string(done->elapsed));
    }
  };
  ToyAdapter adapter(table, 0, std::move(core));
  adapter.start();
  CHECK(adapter.performed == std::vector<std::string>{"throughput 5"});
  CHECK(results == std::vector<std::string>{"5 failed 0", "6 failed 0"});
  adapter.end_throughput(5, 250);
  adapter.end_throughput(5, 300);  // a second end of the same probe is dropped
  CHECK(results.back() == "5 ok 250");
  CHECK(results.size() == 3);
  table.report_counts();
  CHECK(log.lines.back() == "count inference.throughput_probes 3");
}

// The wire bytes of a workload message: body "abc" and 100 filler bytes.
Bytes data_frame(Rank src, Rank dst, std::uint32_t seq, std::uint8_t hops = 0) {
  wire::Frame frame = wire::make_data(src, dst, seq, {9, {'a', 'b', 'c'}}, 100);
  frame.hops = hops;
  return wire::encode(frame);
}

std::vector<std::string> message_lines(const LogObserver& log) {
  std::vector<std::string> lines;
  for (const std::string& line : log.lines)
    if (line.rfind("message ", 0) == 0) lines.push_back(line);
  return lines;
}

TEST_CASE("driver: a workload message is recorded once when it leaves and once when it arrives") {
  LogObserver log;
  ProcessTable table = small_table(log);
  auto sender = std::make_unique<ScriptCore>();
  sender->script = [](ScriptCore& self, const Input& input) {
    if (!std::holds_alternative<StartedInput>(input.event)) return;
    const Bytes frame = data_frame(0, 1, 4);
    // One message in two sends, its filler modelled after the second.
    self.command(SendCmd{5, Bytes(frame.begin(), frame.begin() + 20), 0});
    self.command(SendCmd{5, Bytes(frame.begin() + 20, frame.end()), 100});
    self.command(SendCmd{5, data_frame(1, 0, 8, 1), 100});  // r1's message relayed: not r0's
    self.command(CloseCmd{5});
  };
  ToyAdapter r0(table, 0, std::move(sender));
  r0.clock = 10;
  r0.start();
  CHECK(r0.performed == std::vector<std::string>{"send", "send", "send", "close"});

  auto receiver = std::make_unique<ScriptCore>();
  receiver->script = [](ScriptCore&, const Input&) {};
  ToyAdapter r1(table, 1, std::move(receiver));
  r1.start();
  const Bytes frame = data_frame(0, 1, 4);
  r1.clock = 30;
  r1.input(ReceivedInput{kAcceptedConnBit | 1, Bytes(frame.begin(), frame.end() - 1), 0});
  CHECK(message_lines(log).size() == 1);  // not all of it yet
  r1.clock = 40;
  r1.input(ReceivedInput{kAcceptedConnBit | 1, Bytes(frame.end() - 1, frame.end()), 60});
  CHECK(message_lines(log).size() == 1);  // the filler still outstanding
  r1.clock = 50;
  r1.input(ReceivedInput{kAcceptedConnBit | 1, Bytes(40, 0), 0});  // the rest, as real zeros
  // The same message again (on another connection): its send was recorded once, so it is not.
  r1.input(ReceivedInput{kAcceptedConnBit | 2, data_frame(0, 1, 4), 100});
  CHECK(message_lines(log) ==
        std::vector<std::string>{"message r0 10 left 0->1 seq 4 tag 9 bytes 103",
                                 "message r1 50 arrived 0->1 seq 4 tag 9 bytes 103"});
}

TEST_CASE("driver: messages are recorded up to the run's limit, and not at all in large runs") {
  for (const int processes : {2, runner::kMessageRanksMax + 1}) {
    LogObserver log;
    auto config = std::make_shared<ProtocolConfig>();
    config->processes = processes;
    ProcessTable table("toy", log, config);
    table.add(rank_row(0));
    table.add(rank_row(1));
    auto sender = std::make_unique<ScriptCore>();
    sender->script = [](ScriptCore& self, const Input& input) {
      if (!std::holds_alternative<StartedInput>(input.event)) return;
      for (std::uint32_t seq = 0; seq <= runner::kMessagesMax; ++seq)
        self.command(SendCmd{5, data_frame(0, 7, seq), 100});  // to a rank of no row here
    };
    ToyAdapter r0(table, 0, std::move(sender));
    r0.start();
    CHECK(message_lines(log).size() == (processes == 2 ? runner::kMessagesMax : 0));
    CHECK_FALSE(table.watching_messages());
  }
}

TEST_CASE("table: progress lines come by wall time, every 2 s, with the simulation rate") {
  LogObserver log;
  ProcessTable table = small_table(log);
  double wall = 100.0;
  table.set_wall_clock([&wall] { return wall; });
  auto progress_lines = [&log] {
    return std::count_if(log.lines.begin(), log.lines.end(),
                         [](const std::string& line) { return line.rfind("progress", 0) == 0; });
  };
  table.count_input(0);  // the first input: one line, no rate yet
  REQUIRE(progress_lines() == 1);
  CHECK(log.lines.back() ==
        "progress toy: t=0.000 s, registering: 0 connects to the rendezvous retried; 2 of 2 ranks "
        "running, 1 inputs");
  // Many inputs and much simulated time, but less than 2 s of wall time: silent.
  for (int i = 0; i < 100000; ++i) table.count_input(static_cast<TimeNs>(i) * kNsPerSec);
  wall += 1.5;
  table.count_input(200000 * kNsPerSec);
  CHECK(progress_lines() == 1);
  // 2 s of wall time (exact in binary) and simulated time going back: a line all the same.
  wall += 0.5;
  table.count_input(4 * kNsPerSec);
  REQUIRE(progress_lines() == 2);
  CHECK(log.lines.back() ==
        "progress toy: t=4.000 s, registering: 0 connects to the rendezvous retried; 2 of 2 ranks "
        "running, 100003 inputs; wall 2.0 s, 2 simulated s per wall s, 50001 inputs per wall s");
  // The phase follows the traces every backend passes on (phase_progress.hpp).
  table.note_trace("directory");
  wall += 2.0;
  table.count_input(7 * kNsPerSec);
  CHECK(log.lines.back().find("t=7.000 s, inference: 0 RTT probes; 2 of 2 ranks running") !=
        std::string::npos);
  wall += 1.0;
  table.count_input(7 * kNsPerSec);
  CHECK(progress_lines() == 3);
  wall += 1.0;
  table.count_input(8 * kNsPerSec);
  CHECK(progress_lines() == 4);
}
