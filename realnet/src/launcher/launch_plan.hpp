// What a realnet run executes, worked out before anything runs, so that --dry-run prints
// exactly what a real run would do: the emulated network (netns), and one command line per
// process (rendezvous first, then the ranks), each with its event file and log.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "netns_network.hpp"
#include "tsunagi/realnet/realnet_backend.hpp"

namespace tsunagi::realnet {

// Stands for the rendezvous's address in node command lines until it is known (loopback picks
// a free port; the rendezvous prints it).
inline constexpr const char* kRendezvousPlaceholder = "{RENDEZVOUS}";
inline constexpr int kRendezvousPort = 7100;

struct DaemonPaths {
  std::string node, rendezvous, delayline, relay;
};

struct PlannedProcess {
  std::string label;  // "rendezvous", "r3"
  Rank rank = kNoRank;
  std::vector<std::string> argv;  // full command, with `ip netns exec NS` / `ssh HOST --` prefix
  // --hosts: argv[remote_from..] is the command the remote shell runs (0: none). Kept apart
  // until exec_argv() quotes it, so the rendezvous's address can still take its placeholder.
  std::size_t remote_from = 0;
  std::string events_file;
  std::string log_file;
};

struct LaunchPlan {
  std::string mode;  // loopback | netns | hosts | slurm
  std::string work_dir;
  std::string prefix;  // tsg<pid>-
  std::optional<NetnsPlan> netns;
  DaemonPaths paths;
  PlannedProcess rendezvous;
  std::vector<PlannedProcess> nodes;   // ranks in order; "absent:" faults removed
  std::vector<PlannedProcess> relays;  // scenario::relay_slots order, labelled by their hosts
  std::vector<Rank> absent;            // ranks not started (fault injection)
  std::string slurm_script;            // slurm: the one script that starts everything
};

struct Fault {
  enum class Kind { Kill, Absent } kind = Kind::Kill;
  Rank rank = kNoRank;  // kNoRank: a relay
  std::string label;    // "r3" or a relay label ("chiba-relay0")
  double at_s = 0;
};

// "kill:3@0.5", "kill:chiba-relay0@2" / "absent:3". Throws std::invalid_argument naming the bad
// spec; relay labels are checked against the scenario by check_launch_options.
Fault parse_fault(const std::string& text, int processes);

// The scenario's [[faults]] kills of ranks and relays, as --fault kill:LABEL@S (seconds after
// the processes start). Throws std::invalid_argument for a label the run does not start.
std::vector<Fault> scenario_kills(const scenario::Scenario& scenario);

// Where every daemon reads the run's secret from: the user's --secret-file, or the work
// directory (which a cluster run must share with its hosts), where the launcher or the Slurm
// job draws a fresh one for every run (mode 0600; docs/security.md).
std::string run_secret_path(const LaunchOptions& options);

// Loopback / netns / hosts / slurm, from the options (empty = netns as root, else loopback).
std::string resolve_mode(const LaunchOptions& options);

// Finds the three programs (options.bin_dir, beside this executable, the build tree).
// Throws std::runtime_error listing where it looked.
DaemonPaths find_daemons(const LaunchOptions& options);

// No epoch is given to any daemon: each counts from its own start (adapter/clock_stamp.hpp).
LaunchPlan make_launch_plan(const scenario::Scenario& scenario, const LaunchOptions& options,
                            const DaemonPaths& paths, const std::string& prefix);

// Options every daemon of the run gets: the same scenario and overrides (host costs set to 0:
// host_costs.hpp), its event file, the RTT sample minimum, --status.
std::vector<std::string> daemon_args(const scenario::Scenario& scenario,
                                     const LaunchOptions& options, const std::string& events);

// A command line as a shell would read it (quoted where needed).
std::string shell_line(const std::vector<std::string>& argv);

// Words quoted for a POSIX shell that must take each of them literally: nothing expands, not
// even $VARIABLE (which shell_line leaves to the Slurm script's shell).
std::string literal_shell_words(const std::vector<std::string>& words);

// The command that starts `process`: `rendezvous` in place of its placeholder, and for --hosts
// the remote part as one quoted word. ssh joins its arguments with spaces for the remote shell,
// which splits and interprets them again: a host or path with spaces, ';' or '$(...)' would
// otherwise run as commands there (issue 29).
std::vector<std::string> exec_argv(const PlannedProcess& process, const std::string& rendezvous);

}  // namespace tsunagi::realnet
