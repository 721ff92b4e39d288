// The body of both daemons. See daemon.hpp.
#include "daemon.hpp"

#include <poll.h>
#include <unistd.h>

#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "../adapter/asio_process.hpp"
#include "../adapter/clock_stamp.hpp"
#include "../adapter/run_secret.hpp"
#include "tsunagi/model/roles.hpp"
#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/runner/results/regular_file.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::realnet {
namespace {

std::string machine_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "localhost";
  return name;
}

// "auto:PORT" listens on the address this machine's name resolves to (real clusters).
tcp::endpoint listen_endpoint(const std::string& text) {
  if (text.rfind("auto:", 0) == 0) return parse_tcp_endpoint(machine_name() + text.substr(4));
  return parse_tcp_endpoint(text);
}

// --stop-on-eof before the event loop runs: has standard input ended? (Bytes read are dropped:
// the input carries nothing but its end.)
bool input_ended() {
  pollfd input{STDIN_FILENO, POLLIN, 0};
  if (::poll(&input, 1, 0) <= 0) return false;
  char byte = 0;
  return read(STDIN_FILENO, &byte, 1) == 0;
}

// --rendezvous-file: the rendezvous writes its address there once it listens (--ready-file) on a
// file system the job shares; a node waits for it as it would for a connect.
std::string read_rendezvous_file(const std::string& path, double seconds) {
  const auto deadline = SteadyClock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    std::ifstream in(path);
    std::string endpoint;
    if (in >> endpoint) return endpoint;
    if (SteadyClock::now() >= deadline) return "";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// --host-label scenario: the scenario's name of the rank's host, as SimGrid and netns label it.
std::string scenario_host_label(const scenario::Scenario& scenario, Rank rank) {
  const auto hosts = scenario::enumerate_hosts(scenario.network);
  const auto host_of = scenario::rank_to_host(scenario);
  return hosts.at(static_cast<std::size_t>(host_of.at(static_cast<std::size_t>(rank)))).host;
}

void write_ready_file(const std::string& path, const std::string& endpoint) {
  // Readers never see half an address; a link planted at the name is replaced, not followed.
  runner::write_file_atomically(path, [&](std::ostream& out) { out << endpoint << '\n'; });
}

}  // namespace

void add_daemon_options(CLI::App& app, DaemonOptions& o, Role role) {
  app.add_option("--scenario", o.scenario,
                 "Scenario file (TOML); every process of a run must "
                 "load the same file with the same --set")
      ->required();
  app.add_option("--set", o.sets, "Override a scenario key (repeatable), as for `tsunagi run`")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  app.add_option("--listen", o.listen,
                 "ADDRESS:PORT to listen on (TCP and UDP echo); port 0 = "
                 "any; ADDRESS 'auto' = this machine's name")
      ->capture_default_str();
  app.add_option("--events", o.events,
                 "Where decisions, reports and the exit go, as JSON lines "
                 "('-' = stdout)")
      ->capture_default_str();
  app.add_option("--epoch-ns", o.epoch_ns,
                 "CLOCK_MONOTONIC (ns) to count time from; default: this daemon's start "
                 "(launchers never pass it: every daemon records its clocks in its event file "
                 "and the launcher aligns them)");
  app.add_option("--linger", o.linger_s,
                 "After a successful exit, seconds at most to wait for the last frames to "
                 "reach the kernel before closing (SIGTERM ends it sooner)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 3600.0));
  app.add_flag("--status", o.status,
               "Print 'tsunagi-status LABEL ...' lines on stdout (for "
               "the launcher)");
  app.add_flag("-q,--quiet", o.quiet, "No log lines on stderr");
  app.add_flag("--stop-on-eof", o.stop_on_eof,
               "Stop as on SIGTERM when standard input ends (started over ssh: the daemon "
               "ends with the launcher's connection)");
  app.add_option("--secret-file", o.secret_file,
                 "The run's secret: a file of ours with mode 0600 holding hex digits (the "
                 "launcher writes one per run); default: the TSUNAGI_RUN_SECRET variable. "
                 "Every connection of the run proves it; never pass the secret itself here");
  if (role == Role::Node) {
    auto* rank = app.add_option("--rank", o.rank, "Rank of this process (0 .. processes-1)");
    app.add_option("--rank-env", o.rank_env,
                   "Read the rank from this environment variable "
                   "(e.g. SLURM_PROCID)")
        ->excludes(rank);
  }
  if (role != Role::Rendezvous) {
    o.listen = "auto:0";
    auto* rendezvous =
        app.add_option("--rendezvous", o.rendezvous, "ADDRESS:PORT of the rendezvous");
    app.add_option("--rendezvous-file", o.rendezvous_file,
                   "Read the rendezvous's ADDRESS:PORT from this file (its --ready-file on a "
                   "shared file system), waiting up to --wait-rendezvous seconds for it")
        ->excludes(rendezvous);
    auto* label = app.add_option("--host-label", o.host_label,
                                 role == Role::Relay
                                     ? "The relay's label (its scenario host, e.g. chiba-relay0)"
                                     : "Name of this machine as registered (processes "
                                       "with the same label are host-mates); default: "
                                       "the host name; 'scenario': the rank's scenario host");
    if (role == Role::Relay) label->required();
    app.add_option("--site", o.site,
                   "Cluster this process runs in (the scenario's network.cluster name)");
    app.add_option("--wait-rendezvous", o.wait_rendezvous_s,
                   "Seconds to wait for --rendezvous-file to name the rendezvous (reaching it "
                   "is the core's: protocol.registration_timeout)")
        ->capture_default_str();
  } else {
    o.listen = "auto:7100";
    app.add_option("--ready-file", o.ready_file, "Write ADDRESS:PORT here once listening");
  }
}

int run_daemon(DaemonOptions& o, Role role) {
  const bool node = role == Role::Node;
  const bool relay = role == Role::Relay;
  const char* program = node ? "tsunagi-node" : relay ? "tsunagi-relay" : "tsunagi-rendezvous";
  auto fail = [&](const std::string& message) {
    std::cerr << program << ": " << message << '\n';
    return 2;
  };
  if (node && !o.rank_env.empty()) {
    const char* value = std::getenv(o.rank_env.c_str());
    if (value == nullptr) return fail("--rank-env " + o.rank_env + ": variable is not set");
    o.rank = static_cast<Rank>(std::atoi(value));
  }
  // "{rank}" in the events path: one --events pattern for all tasks of a Slurm step.
  if (const auto at = o.events.find("{rank}"); at != std::string::npos && node)
    o.events.replace(at, 6, std::to_string(o.rank));
  scenario::Scenario scenario;
  try {
    scenario = scenario::load_scenario_file(o.scenario, o.sets);
  } catch (const std::exception& error) {
    return fail(error.what());
  }
  auto config = std::make_shared<ProtocolConfig>(scenario.protocol);
  config->processes = scenario::process_count(scenario);
  if (node && (o.rank < 0 || o.rank >= config->processes))
    return fail("--rank " + std::to_string(o.rank) + " is not in 0.." +
                std::to_string(config->processes - 1) + " (the scenario has " +
                std::to_string(config->processes) + " processes); pass --rank or --rank-env");
  if (node && o.host_label == "scenario") o.host_label = scenario_host_label(scenario, o.rank);
  if ((node || relay) && o.rendezvous.empty() && o.rendezvous_file.empty())
    return fail("give --rendezvous ADDRESS:PORT or --rendezvous-file FILE");
  if (!o.rendezvous_file.empty()) {
    o.rendezvous = read_rendezvous_file(o.rendezvous_file, o.wait_rendezvous_s);
    if (o.rendezvous.empty())
      return fail("--rendezvous-file " + o.rendezvous_file + ": no address after " +
                  std::to_string(o.wait_rendezvous_s) + " s (did the rendezvous start?)");
  }

  AdapterOptions adapter;
  try {
    adapter.secret = read_run_secret(o.secret_file);
    adapter.nonce_seed = random_seed();
  } catch (const std::exception& error) {
    return fail(error.what());
  }
  adapter.rank = node ? o.rank : kNoRank;
  // A relay is labelled by its host, as in the simulators ("chiba-relay0").
  adapter.label = relay ? o.host_label : runner::process_label(adapter.rank);
  adapter.rendezvous = o.rendezvous;
  adapter.host_label = o.host_label.empty() ? machine_name() : o.host_label;
  adapter.site = o.site;
  adapter.config = config;
  if (o.epoch_ns >= 0)
    adapter.epoch = SteadyClock::time_point(std::chrono::nanoseconds(o.epoch_ns));
  try {
    const tcp::endpoint where = listen_endpoint(o.listen);
    adapter.listen_address = where.address();
    adapter.listen_port = where.port();
    if (where.address().is_unspecified())
      return fail("--listen " + o.listen + ": give the address others reach this process at");
  } catch (const std::exception& error) {
    return fail("--listen: " + std::string(error.what()));
  }
  const std::string label = adapter.label;
  auto log_line = [&](const std::string& text) {
    if (!o.quiet) std::cerr << "[" << program << " " << label << "] " << text << std::endl;
  };
  auto status = [&](const std::string& text) {
    if (o.status) std::cout << "tsunagi-status " << label << ' ' << text << std::endl;
  };
  adapter.log = log_line;  // the adapter's own lines (out of descriptors) go to the daemon's log

  std::signal(SIGPIPE, SIG_IGN);
  asio::io_context io;
  std::unique_ptr<EventLog> events;
  try {
    events = std::make_unique<EventLog>(o.events, label);
  } catch (const std::exception& error) {
    return fail(error.what());
  }
  // This daemon's own clock; the launcher aligns processes by these stamps (clock_stamp.hpp).
  const ClockStamp clock = clock_stamp(adapter.epoch);
  events->write_clock(clock);
  status("clock " + clock_words(clock));
  AsioProcess process(io,
                      node    ? make_node()
                      : relay ? make_relay()
                              : make_rendezvous(),
                      adapter, *events);
  try {
    process.open();
  } catch (const std::exception& error) {
    return fail(error.what());
  }
  const Endpoint endpoint = process.endpoint();
  log_line("listening on " + endpoint + " (host " + adapter.host_label + ")");
  status("listening " + endpoint);
  if (!o.ready_file.empty()) write_ready_file(o.ready_file, endpoint);

  asio::steady_timer linger(io);
  SteadyClock::time_point linger_until;
  asio::posix::stream_descriptor* input_ptr = nullptr;  // set below, closed at the end
  auto finish = [&] {
    if (input_ptr != nullptr) input_ptr->close();
    linger.cancel();
    process.shut_down();
    io.stop();
  };
  std::function<void()> wait_flushed = [&] {
    if (process.flushed() || SteadyClock::now() >= linger_until) return finish();
    linger.expires_after(std::chrono::milliseconds(5));
    linger.async_wait([&](const boost::system::error_code& error) {
      if (!error) wait_flushed();
    });
  };
  auto stop = [&](const std::string& why) {
    if (!process.exited()) {
      log_line(why);
      process.stop(why);
    }
    finish();
  };
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& error, int number) {
    if (!error) stop(std::string("stopped by signal ") + (number == SIGINT ? "SIGINT" : "SIGTERM"));
  });
  // Over ssh a signal to the local client does not reach this process; the end of its
  // connection does, as the end of standard input.
  asio::posix::stream_descriptor input(io);
  std::array<char, 256> input_buffer{};
  std::function<void()> read_input = [&] {
    input.async_read_some(asio::buffer(input_buffer),
                          [&](const boost::system::error_code& error, std::size_t) {
                            if (error == asio::error::operation_aborted) return;
                            if (error) return stop("stopped: standard input ended (launcher gone)");
                            read_input();
                          });
  };
  if (o.stop_on_eof) {
    input_ptr = &input;
    input.assign(dup(STDIN_FILENO));
    read_input();
  }
  process.on_exit = [&](const ExitCmd& exit) {
    log_line(exit.ok ? "exited ok" : "exited with failure: " + exit.reason);
    status(exit.ok ? "exited ok" : "exited failed " + exit.reason);
    if (!exit.ok) return asio::post(io, finish);  // a failure is seen by the peers at once
    // The last frames the core sent (the rendezvous's release) reach the kernel before the
    // sockets close; --linger bounds the wait for a peer that no longer reads.
    linger_until = SteadyClock::now() + std::chrono::duration_cast<std::chrono::nanoseconds>(
                                            std::chrono::duration<double>(o.linger_s));
    asio::post(io, wait_flushed);
  };

  // No waiting for the rendezvous here: nodes and relays may start before it listens (srun
  // starts everything at once), and the core retries a refused registration on its own timer
  // until protocol.registration_timeout (model/src/role/registration_retry.hpp), then fails
  // with "cannot reach the rendezvous". A launcher already gone stops the daemon before that.
  if (o.stop_on_eof && input_ended()) {
    stop("stopped: standard input ended (launcher gone)");  // before the core started
    return 1;
  }
  process.start();
  io.run();
  return process.exited_ok() ? 0 : 1;
}

int daemon_main(int argc, char** argv, Role role) {
  const char* about =
      role == Role::Node
          ? "tsunagi-node: one rank of a tsunagi run over real TCP (docs/realnet.md).\n"
            "Loads the scenario, registers with the rendezvous, runs the protocol core."
      : role == Role::Relay
          ? "tsunagi-relay: a relay daemon of the relay plan over real TCP (docs/relay.md).\n"
            "Registers with the rendezvous, connects to the other relays, forwards between sites."
          : "tsunagi-rendezvous: the bootstrap server of a tsunagi run over real TCP "
            "(docs/realnet.md).\nWaits for every rank, hands out the directory, "
            "combines the switch views.";
  CLI::App app{about};
  DaemonOptions options;
  add_daemon_options(app, options, role);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;
  }
  return run_daemon(options, role);
}

}  // namespace tsunagi::realnet
