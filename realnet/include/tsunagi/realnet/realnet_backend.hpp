// The realnet backend: runs a scenario as real processes (tsunagi-rendezvous + one tsunagi-node
// per rank) over real kernel TCP, on loopback, in network namespaces that emulate the
// scenario's switched network, or on a real cluster (ssh host list or Slurm). Each process
// writes its decisions as JSON lines; the launcher replays them into the runner's observer.
// docs/realnet.md explains every choice.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "tsunagi/model/types.hpp"
#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/runner/driver/run_summary.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::realnet {

// No --latency-scale given: 50 for LANs and WAN stars, 1 for site_rtt WANs (docs/realnet.md).
inline constexpr double kAutoLatencyScale = -1.0;

struct LaunchOptions {
  // "loopback", "netns", "hosts" (needs hosts_file) or "slurm"; empty = netns when running as
  // root, loopback otherwise.
  std::string net;
  std::string hosts_file;
  bool dry_run = false;
  // Emulation calibration (netns): each link's one-way latency is multiplied by latency_scale;
  // links whose scaled latency is below min_delay get no delay line (a plain veth, ~1 us).
  double latency_scale = kAutoLatencyScale;
  TimeNs min_delay = 1 * kNsPerUs;
  double timeout_s = 600;              // the whole run, from the first process started
  std::vector<std::string> overrides;  // the run's --set list (seed last), given to every daemon
  std::string work_dir;                // daemon logs and event files; created if missing
  std::string bin_dir;  // where the daemons are; empty = beside tsunagi, then the build
  // --hosts: the command that runs a command on a machine ("ssh -o BatchMode=yes HOST -- CMD");
  // split at spaces, the host and "--" are appended.
  std::string ssh_command = "ssh -o BatchMode=yes";
  // --hosts and Slurm: words put before every daemon's command on its machine (e.g. numactl, or
  // the tests' wrapper that enters a namespace "machine"); split at spaces.
  std::string launch_prefix;
  // Slurm: KEY=VALUE replacing or adding #SBATCH --KEY=VALUE lines ("KEY=" removes one).
  std::vector<std::string> sbatch;
  // Fault injection for tests: "kill:RANK@SECONDS" (SIGKILL that rank's process then),
  // "absent:RANK" (never start it).
  std::vector<std::string> faults;
  // --secret-file: the run's secret from this file (the user's, mode 0600, on a file system
  // every host shares), used as it is. Empty: a fresh secret is drawn for every run (the
  // launcher, or the Slurm job) into <work dir>/run.secret (docs/security.md).
  std::string secret_file;
};

// Runs the scenario to its end and tells `observer` everything the processes decided and
// reported. Every namespace, link and process it made is gone when it returns (also after an
// exception or SIGINT). Throws std::invalid_argument for bad options, std::runtime_error when
// the run cannot start at all (not root for netns, daemons not found).
runner::RunSummary run_realnet(const scenario::Scenario& scenario, runner::RunObserver& observer,
                               const LaunchOptions& options);

// Bad options (unknown --net, bad --fault, unreadable --hosts file) -> std::invalid_argument
// saying what is wrong; call it before a run to report bad input as such.
void check_launch_options(const scenario::Scenario& scenario, const LaunchOptions& options);

// --dry-run: prints the commands a run would execute (network set-up, processes, clean-up)
// without executing anything.
void print_realnet_plan(const scenario::Scenario& scenario, const LaunchOptions& options,
                        std::ostream& out);

// `tsunagi collect`: a run's WORK_DIR (OUT/realnet) holds run.json, written before any process
// started, and the processes' event files. The scenario file and --set list the run used:
// (throws std::invalid_argument naming the file when run.json is missing or malformed, and
// saying that the job has not run yet when the directory is there without run.json, or no
// process has written its event file).
struct CollectedScenario {
  std::string path;
  std::vector<std::string> overrides;
};
CollectedScenario collected_scenario(const std::string& work_dir);

// Replays WORK_DIR's event files into `observer` exactly as the launcher does after a run; a
// process whose file has no exit gets a failed one (naming its log), and the summary fails.
runner::RunSummary collect_realnet(const std::string& work_dir, runner::RunObserver& observer);

// Removes the namespaces of earlier runs whose launcher is gone (names tsg<pid>-*, pid dead).
// Returns how many were removed.
int remove_stale_namespaces();

}  // namespace tsunagi::realnet
