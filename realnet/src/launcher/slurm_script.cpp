// The Slurm script. See slurm_script.hpp.
#include "slurm_script.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <sstream>
#include <stdexcept>

#include "tsunagi/realnet/sbatch_lines.hpp"

namespace tsunagi::realnet {
namespace fs = std::filesystem;

namespace {

// Scenario hosts the ranks use: one Slurm node each (block distribution keeps a host's ranks
// together when every host has as many).
std::size_t hosts_in_use(const scenario::Scenario& scenario) {
  const auto host_of = scenario::rank_to_host(scenario);
  return std::set<int>(host_of.begin(), host_of.end()).size();
}

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The run's secret: the user's --secret-file as it is, or a fresh one for every job.
std::string secret_lines(const LaunchOptions& options, const std::string& secret) {
  if (!options.secret_file.empty())
    return "# The run's secret: --secret-file " + shell_line({secret}) + " (docs/security.md).\n";
  return "# The run's secret (docs/security.md): every job draws a fresh one, readable by\n"
         "# its owner only, before any task starts; one left by an earlier job is never reused\n"
         "# (whoever read it then could join this run). set -C: never written through a link.\n"
         "rm -f " +
         shell_line({secret}) +
         "\n(umask 077; set -C; od -An -N32 -tx1 /dev/urandom | tr -d ' \\n' > " +
         shell_line({secret}) + "; echo >> " + shell_line({secret}) + ")\n";
}

}  // namespace

std::vector<std::pair<std::string, std::string>> sbatch_directives(
    const scenario::Scenario& scenario, const LaunchOptions& options, const LaunchPlan& plan) {
  const std::string name =
      scenario.name.empty() ? fs::path(scenario.path).stem().string() : scenario.name;
  // The launcher's --timeout bounds the run; Slurm's limit is a minute more, so the run's
  // own time-out (which names what still runs) comes first.
  const long minutes = static_cast<long>(std::ceil(options.timeout_s / 60.0)) + 1;
  SbatchLines lines{
      {"job-name", "tsunagi-" + name},
      {"nodes", std::to_string(hosts_in_use(scenario))},
      {"ntasks", std::to_string(scenario::process_count(scenario))},
      {"time", std::to_string(minutes)},
      {"output", (fs::path(plan.work_dir) / "slurm.log").string()},
  };
  apply_sbatch_options(lines, options.sbatch);
  return lines;
}

std::string slurm_script(const scenario::Scenario& scenario, const LaunchOptions& options,
                         const LaunchPlan& plan, const std::string& manifest_json) {
  const fs::path work(plan.work_dir);
  const std::string address_file = (work / "rendezvous.addr").string();
  const std::string secret = run_secret_path(options);
  std::ostringstream s;
  s << "#!/bin/bash\n";
  s << sbatch_header(sbatch_directives(scenario, options, plan));
  s << "# tsunagi run " << scenario.path
    << " --backend realnet --net slurm: " << scenario::process_count(scenario)
    << " ranks + rendezvous.\n"
    << "# Submit with sbatch (or run inside salloc); then: tsunagi collect "
    << work.parent_path().string() << "\n"
    << "# --out must be on a file system every node shares; --dry-run creates " << plan.work_dir
    << "\n# (Slurm opens --output before the script runs).\n"
    << "set -e\n"
    << "command -v srun >/dev/null || { echo \"tsunagi: srun: command not found on "
       "${HOSTNAME:-this node} "
       "(PATH=$PATH): Slurm's client commands are needed\" >&2; exit 3; }\n"
    << "[ -n \"${SLURM_JOB_ID:-}\" ] || { echo \"tsunagi: not inside a Slurm allocation "
       "(SLURM_JOB_ID is not set): submit this script with sbatch or run it under salloc\" "
       ">&2; exit 3; }\n"
    << "mkdir -p " << shell_line({work.string()}) << "\n"
    << "rm -f " << shell_line({address_file}) << "\n"
    << secret_lines(options, secret) << "cat > " << shell_line({(work / "run.json").string()})
    << " <<'TSUNAGI_RUN_JSON'\n"
    << manifest_json << "\nTSUNAGI_RUN_JSON\n"
    << "# Ctrl-C / SIGTERM: SIGTERM to every task of the job's steps (scancel --signal; srun "
       "itself\n# would SIGKILL them), so each daemon records its exit; then the steps end.\n"
    << "trap 'scancel --quiet --signal=TERM \"$SLURM_JOB_ID\" || kill -TERM $(jobs -p); wait' "
       "INT TERM\n";
  const std::vector<std::string> prefix = split_words(options.launch_prefix);
  std::vector<std::string> rv{"srun", "--nodes=1", "--ntasks=1", "--overlap",
                              "--error=" + plan.rendezvous.log_file};
  rv.insert(rv.end(), prefix.begin(), prefix.end());
  rv.push_back(plan.paths.rendezvous);
  auto rv_args = daemon_args(scenario, options, plan.rendezvous.events_file);
  rv.insert(rv.end(), rv_args.begin(), rv_args.end());
  rv.insert(rv.end(), {"--listen", "auto:0", "--ready-file", address_file});
  std::vector<std::string> nodes{"srun",
                                 "--ntasks=" + std::to_string(scenario::process_count(scenario)),
                                 "--overlap", "--error=" + (work / "r%t.log").string()};
  nodes.insert(nodes.end(), prefix.begin(), prefix.end());
  nodes.push_back(plan.paths.node);
  auto node_args = daemon_args(scenario, options, (work / "r{rank}.events.jsonl").string());
  nodes.insert(nodes.end(), node_args.begin(), node_args.end());
  nodes.insert(nodes.end(), {"--rank-env", "SLURM_PROCID", "--listen", "auto:0",
                             "--rendezvous-file", address_file, "--host-label", "scenario"});
  s << shell_line(rv) << " &\n" << shell_line(nodes) << " &\nwait\n";
  return s.str();
}

}  // namespace tsunagi::realnet
