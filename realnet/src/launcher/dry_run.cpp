// --dry-run: the commands of a run, printed as a shell script; and the clean-up of namespaces
// that dead runs left behind.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <ostream>
#include <regex>

#include "launch_plan.hpp"
#include "netns_session.hpp"
#include "tsunagi/realnet/realnet_backend.hpp"

namespace tsunagi::realnet {
namespace fs = std::filesystem;

namespace {

void print_batch(std::ostream& out, const std::string& command,
                 const std::vector<std::string>& lines) {
  out << command << " <<'EOF'\n";
  for (const std::string& line : lines) out << line << '\n';
  out << "EOF\n";
}

}  // namespace

void print_realnet_plan(const scenario::Scenario& scenario, const LaunchOptions& options,
                        std::ostream& out) {
  DaemonPaths paths;
  try {
    paths = find_daemons(options);
  } catch (const std::runtime_error&) {
    paths = {"tsunagi-node", "tsunagi-rendezvous", "tsunagi-delayline",  // still worth printing
             "tsunagi-relay"};
  }
  const LaunchPlan plan =
      make_launch_plan(scenario, options, paths, "tsg" + std::to_string(getpid()) + "-");
  if (plan.mode == "slurm") {
    // The batch script itself: `tsunagi run ... --dry-run > job.sh && sbatch job.sh`. Slurm
    // opens #SBATCH --output before the script runs, so its directory must exist: the one
    // thing this dry run creates.
    std::error_code ignored;
    fs::create_directories(plan.work_dir, ignored);
    out << plan.slurm_script;
    return;
  }
  out << "#!/bin/sh\n# tsunagi run " << scenario.path << " --backend realnet --net " << plan.mode
      << " (dry run: nothing was executed)\n# " << scenario::process_count(scenario)
      << " ranks + rendezvous"
      << (plan.relays.empty() ? "" : " + " + std::to_string(plan.relays.size()) + " relays")
      << "; event files and logs in " << plan.work_dir << "\n";
  if (plan.netns) {
    const NetnsPlan& net = *plan.netns;
    out << "\n# 1. network: " << net.namespaces.size() << " namespaces, " << net.veth_links
        << " veth links, " << net.delay_links.size() << " delay lines (latency x"
        << net.latency_scale << ", links under " << options.min_delay / 1000
        << " us after scaling stay plain veth)\n";
    print_batch(out, "ip -b -", net.root_batch);
    if (!net.delay_links.empty()) {
      std::vector<std::string> argv{paths.delayline};
      const auto args = delay_line_args(net);
      argv.insert(argv.end(), args.begin(), args.end());
      out << shell_line(argv) << " &   # prints 'ready' once its TAP devices exist\n";
    }
    for (const std::string& ns : net.namespaces) {
      print_batch(out, "ip -n " + ns + " -b -", net.ns_batch.at(ns));
      if (net.tc_batch.count(ns)) print_batch(out, "tc -n " + ns + " -b -", net.tc_batch.at(ns));
    }
    for (const auto& relay : net.relay_hosts)
      out << "# relay host " << relay.label << ": namespace " << relay.ns << ", " << relay.ip
          << " (site " << relay.site << "; its daemon runs with plan = relay)\n";
    if (!net.ns_exec.empty())
      out << (scenario.network.dragonfly
                  ? "# Dragonfly routers: forwarding, no reverse-path filter\n"
                  : "# WAN: SYN timing, routers' forwarding and policies\n");
    for (const auto& [ns, argv] : net.ns_exec) {
      std::vector<std::string> line{"ip", "netns", "exec", ns};
      line.insert(line.end(), argv.begin(), argv.end());
      out << shell_line(line) << "\n";
    }
  }
  out << "\n# 2. processes (each prints 'tsunagi-status LABEL listening|exited ...' on stdout)\n";
  // --hosts lines quote every word literally: a '$' in a host name must not expand here either.
  auto line = [&](const std::vector<std::string>& argv) {
    return plan.mode == "hosts" ? literal_shell_words(argv) : shell_line(argv);
  };
  out << line(exec_argv(plan.rendezvous, "")) << " > rendezvous.status &\n";
  const bool known = plan.mode != "loopback";
  if (!known)
    out << "RENDEZVOUS=...   # the address in 'tsunagi-status rendezvous listening ADDRESS:PORT'\n";
  std::vector<PlannedProcess> started = plan.relays;  // relays first, then the ranks
  started.insert(started.end(), plan.nodes.begin(), plan.nodes.end());
  for (const auto& process : started) {
    const std::string rendezvous = known ? plan.rendezvous.argv.back() : "$RENDEZVOUS";
    out << line(exec_argv(process, rendezvous)) << " &\n";
  }
  out << "wait   # then SIGTERM every process once all printed 'exited'\n";
  if (plan.netns) {
    out << "\n# 3. clean-up (also after a failure or Ctrl-C)\nkill <delay line pid>\n";
    print_batch(out, "ip -force -b -", teardown_batch(*plan.netns));
  }
}

int remove_stale_namespaces() {
  const fs::path dir = "/var/run/netns";
  std::error_code error;
  if (!fs::is_directory(dir, error) || geteuid() != 0) return 0;
  static const std::regex ours("tsg([0-9]+)-.*");
  std::vector<std::string> lines;
  for (const auto& entry : fs::directory_iterator(dir, error)) {
    std::smatch match;
    const std::string name = entry.path().filename().string();
    if (!std::regex_match(name, match, ours)) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(match[1].str()));
    if (pid == getpid()) continue;
    if (kill(pid, 0) == 0 || errno != ESRCH) continue;  // that launcher still runs
    lines.push_back("netns del " + name);
  }
  if (lines.empty()) return 0;
  try {
    // On stdin: a file at a predictable name in /tmp let any local user feed root commands.
    run_tool({"ip", "-force", "-b", "-"}, "", lines);
  } catch (const std::exception&) {
  }
  return static_cast<int>(lines.size());
}

}  // namespace tsunagi::realnet
