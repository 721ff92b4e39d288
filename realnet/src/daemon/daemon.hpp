// What tsunagi-node, tsunagi-rendezvous and tsunagi-relay share: options, scenario loading,
// signals, the run of one AsioProcess, and the status lines the launcher reads (docs/realnet.md,
// "daemons").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tsunagi/model/types.hpp"

namespace tsunagi::realnet {

// Relay: a relay daemon of the relay plan (paper 001's ssockd), named by its --host-label.
enum class Role { Node, Rendezvous, Relay };

struct DaemonOptions {
  std::string scenario;  // same file and overrides as the launcher's
  std::vector<std::string> sets;
  std::string listen;          // ADDRESS:PORT; "auto" = this machine's name, resolved
  std::string events = "-";    // JSON lines; "-" = stdout
  std::int64_t epoch_ns = -1;  // CLOCK_MONOTONIC to count from; -1 = this daemon's start
  double linger_s = 2.0;       // after the exit: wait this long at most for writes to drain
  bool status = false;         // print "tsunagi-status ..." lines on stdout
  bool quiet = false;
  bool stop_on_eof = false;  // stop when standard input ends (the launcher's ssh went away)
  std::string secret_file;   // the run's secret (0600); "" = TSUNAGI_RUN_SECRET
  // nodes (and relays: rendezvous, host label = the relay's label, site, wait)
  Rank rank = kNoRank;
  std::string rank_env;  // take the rank from this environment variable
  std::string rendezvous;
  std::string rendezvous_file;  // or read ADDRESS:PORT from this file once it exists
  std::string host_label;       // default: gethostname(); "scenario": the rank's scenario host
  std::string site;             // the cluster (StartedInput.site); "" without clusters
  double wait_rendezvous_s = 30.0;
  // rendezvous only
  std::string ready_file;  // gets "ADDRESS:PORT" once listening
};

// Registers every option of `role` on `app`.
void add_daemon_options(CLI::App& app, DaemonOptions& options, Role role);

// Runs the daemon to its end. Returns the process exit status: 0 the core exited ok, 1 it
// exited with failure (or was stopped by a signal), 2 bad options/scenario/address.
int run_daemon(DaemonOptions& options, Role role);

// Parses argv for `role` and runs it: the whole main() of a daemon.
int daemon_main(int argc, char** argv, Role role);

}  // namespace tsunagi::realnet
