// Building command lines for every process of a run. See launch_plan.hpp.
#include "launch_plan.hpp"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "host_costs.hpp"
#include "hosts_file.hpp"
#include "run_manifest.hpp"
#include "slurm_script.hpp"
#include "tsunagi/runner/driver/observer.hpp"

namespace tsunagi::realnet {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> split_words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// Relay daemons where netns_network put their hosts, or on loopback; labelled by their scenario
// host names. Every relay the scenario places is started, whatever the plan, as in the
// simulators: the core decides whether it takes part (outside plan = relay it leaves at once).
// Host lists and Slurm have no machine for a relay: plan = relay is refused there
// (check_launch_options) and other plans run without them.
void plan_relays(const scenario::Scenario& scenario, const LaunchOptions& options,
                 LaunchPlan& plan) {
  if (plan.mode != "loopback" && plan.mode != "netns") return;
  const auto slots = scenario::relay_slots(scenario);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    PlannedProcess p;
    p.label = slots[i].host;
    p.events_file = (fs::path(plan.work_dir) / (p.label + ".events.jsonl")).string();
    p.log_file = (fs::path(plan.work_dir) / (p.label + ".log")).string();
    std::string listen = "127.0.0.1:0";
    if (plan.mode == "netns") {
      const NetnsPlan::RelayHost& host = plan.netns->relay_hosts.at(i);
      p.argv = {"ip", "netns", "exec", host.ns};
      listen = host.ip + ":0";
    }
    auto args = daemon_args(scenario, options, p.events_file);
    args.insert(args.begin(), plan.paths.relay);
    args.insert(
        args.end(),
        {"--rendezvous", kRendezvousPlaceholder, "--listen", listen, "--host-label", p.label,
         "--site", scenario.network.clusters.at(static_cast<std::size_t>(slots[i].cluster)).name});
    p.argv.insert(p.argv.end(), args.begin(), args.end());
    plan.relays.push_back(std::move(p));
  }
}

}  // namespace

std::string run_secret_path(const LaunchOptions& options) {
  if (!options.secret_file.empty()) return fs::absolute(options.secret_file).string();
  return (fs::absolute(options.work_dir) / "run.secret").string();
}

std::vector<std::string> daemon_args(const scenario::Scenario& scenario,
                                     const LaunchOptions& options, const std::string& events) {
  std::vector<std::string> args{"--scenario", fs::absolute(scenario.path).string()};
  // The host costs last, so they win: the machine pays its own (host_costs.hpp).
  std::vector<std::string> sets = options.overrides;
  for (std::string& zero : host_cost_zeroing(scenario.protocol.costs)) sets.push_back(zero);
  for (const std::string& set : sets) {
    args.push_back("--set");
    args.push_back(set);
  }
  // The path only: the secret itself never goes on a command line (run_secret.hpp).
  args.insert(args.end(), {"--events", events, "--secret-file", run_secret_path(options),
                           "--linger", "120", "--status"});
  return args;
}

Fault parse_fault(const std::string& text, int processes) {
  Fault fault;
  std::string rest;
  if (text.rfind("kill:", 0) == 0) {
    fault.kind = Fault::Kind::Kill;
    rest = text.substr(5);
  } else if (text.rfind("absent:", 0) == 0) {
    fault.kind = Fault::Kind::Absent;
    rest = text.substr(7);
  } else {
    throw std::invalid_argument("--fault " + text + ": expected kill:RANK@SECONDS or absent:RANK");
  }
  const std::string who = rest.substr(0, rest.find('@'));
  if (fault.kind == Fault::Kind::Kill && !who.empty() &&
      who.find_first_not_of("0123456789") != std::string::npos) {
    // A relay, by its label: kill:chiba-relay0@2.
    fault.label = who;
    try {
      if (who.size() >= rest.size()) throw std::invalid_argument("no @");
      fault.at_s = std::stod(rest.substr(who.size() + 1));
    } catch (const std::exception&) {
      throw std::invalid_argument("--fault " + text + ": expected kill:LABEL@SECONDS");
    }
    return fault;
  }
  try {
    std::size_t used = 0;
    fault.rank = std::stoi(rest, &used);
    if (fault.kind == Fault::Kind::Kill) {
      if (used >= rest.size() || rest[used] != '@') throw std::invalid_argument("no @");
      fault.at_s = std::stod(rest.substr(used + 1));
    } else if (used != rest.size()) {
      throw std::invalid_argument("trailing");
    }
  } catch (const std::exception&) {
    throw std::invalid_argument("--fault " + text + ": expected kill:RANK@SECONDS or absent:RANK");
  }
  if (fault.rank < 0 || fault.rank >= processes)
    throw std::invalid_argument("--fault " + text + ": rank is not in 0.." +
                                std::to_string(processes - 1));
  fault.label = runner::process_label(fault.rank);
  return fault;
}

// Labels a kill may name: the ranks and the relays the run starts.
static bool killable(const scenario::Scenario& scenario, const std::string& label) {
  const int processes = scenario::process_count(scenario);
  for (Rank r = 0; r < processes; ++r)
    if (runner::process_label(r) == label) return true;
  for (const scenario::RelaySlot& slot : scenario::relay_slots(scenario))
    if (slot.host == label) return true;
  return false;
}

std::vector<Fault> scenario_kills(const scenario::Scenario& scenario) {
  std::vector<Fault> kills;
  const int processes = scenario::process_count(scenario);
  for (const scenario::FaultSpec& spec : scenario.faults) {
    if (!killable(scenario, spec.kill))
      throw std::invalid_argument(scenario.path + ": [[faults]] kill = \"" + spec.kill +
                                  "\": realnet kills ranks (r0..r" + std::to_string(processes - 1) +
                                  ") and relays by their host names");
    Fault fault;
    fault.label = spec.kill;
    for (Rank r = 0; r < processes; ++r)
      if (runner::process_label(r) == spec.kill) fault.rank = r;
    fault.at_s = static_cast<double>(spec.at) / 1e9;
    kills.push_back(fault);
  }
  return kills;
}

void check_launch_options(const scenario::Scenario& scenario, const LaunchOptions& options) {
  const std::string mode = resolve_mode(options);
  scenario_kills(scenario);
  for (const std::string& text : options.faults) {
    const Fault fault = parse_fault(text, scenario::process_count(scenario));
    if (!killable(scenario, fault.label))
      throw std::invalid_argument("--fault " + text + ": " + fault.label +
                                  " is neither a rank nor a relay of this run");
  }
  if (mode != "loopback" && mode != "netns" && scenario.protocol.overlay.plan == PlanKind::Relay)
    throw std::invalid_argument(
        "plan = \"relay\" runs its relay daemons in loopback and netns "
        "mode only (--net loopback or netns); --net " +
        mode + " would need a machine for each relay");
  if (mode == "hosts")
    map_scenario_hosts(read_hosts_file(options.hosts_file),
                       scenario::enumerate_hosts(scenario.network).size(), options.hosts_file);
  if (mode == "slurm") {
    for (const std::string& text : options.faults)
      if (text.rfind("absent:", 0) == 0)
        throw std::invalid_argument("--fault " + text +
                                    ": Slurm starts one task per rank (SLURM_PROCID); absent "
                                    "ranks need --net loopback or netns");
    LaunchPlan plan;
    plan.mode = mode;
    sbatch_directives(scenario, options, plan);  // a bad --sbatch is bad input
  }
  if (mode != "slurm" && !options.sbatch.empty())
    throw std::invalid_argument("--sbatch applies to --net slurm only");
}

std::string resolve_mode(const LaunchOptions& options) {
  std::string mode = options.net;
  if (!options.hosts_file.empty()) {
    if (!mode.empty() && mode != "hosts")
      throw std::invalid_argument("--hosts and --net " + mode + " exclude each other");
    mode = "hosts";
  }
  if (mode.empty()) mode = geteuid() == 0 ? "netns" : "loopback";
  if (mode != "loopback" && mode != "netns" && mode != "hosts" && mode != "slurm")
    throw std::invalid_argument("--net " + mode +
                                ": expected loopback, netns or slurm (or --hosts FILE)");
  if (mode == "hosts" && options.hosts_file.empty())
    throw std::invalid_argument("--net hosts needs --hosts FILE");
  return mode;
}

DaemonPaths find_daemons(const LaunchOptions& options) {
  std::vector<fs::path> dirs;
  if (!options.bin_dir.empty()) dirs.emplace_back(options.bin_dir);
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (!error) dirs.push_back(self.parent_path());
  dirs.emplace_back(TSUNAGI_REALNET_BUILD_BIN_DIR);
  for (const fs::path& dir : dirs) {
    if (fs::exists(dir / "tsunagi-node") && fs::exists(dir / "tsunagi-rendezvous"))
      return {(dir / "tsunagi-node").string(), (dir / "tsunagi-rendezvous").string(),
              (dir / "tsunagi-delayline").string(), (dir / "tsunagi-relay").string()};
  }
  std::string looked;
  for (const fs::path& dir : dirs) looked += " " + dir.string();
  throw std::runtime_error("tsunagi-node/tsunagi-rendezvous not found (looked in" + looked +
                           "); build them or pass --realnet-bin DIR");
}

LaunchPlan make_launch_plan(const scenario::Scenario& scenario, const LaunchOptions& options,
                            const DaemonPaths& paths, const std::string& prefix) {
  LaunchPlan plan;
  plan.mode = resolve_mode(options);
  plan.work_dir = fs::absolute(options.work_dir).string();
  plan.prefix = prefix;
  plan.paths = paths;
  const int processes = scenario::process_count(scenario);
  for (const std::string& text : options.faults) {
    const Fault fault = parse_fault(text, processes);
    if (fault.kind == Fault::Kind::Absent) plan.absent.push_back(fault.rank);
  }
  std::sort(plan.absent.begin(), plan.absent.end());
  plan.absent.erase(std::unique(plan.absent.begin(), plan.absent.end()), plan.absent.end());
  const auto hosts = scenario::enumerate_hosts(scenario.network);
  const auto host_of = scenario::rank_to_host(scenario);
  const auto site_of = scenario::rank_clusters(scenario);
  std::vector<std::string> cluster_hosts;  // hosts: the machine of every scenario host
  if (plan.mode == "netns")
    plan.netns = plan_netns(scenario, prefix, {options.latency_scale, options.min_delay});
  if (plan.mode == "hosts")
    cluster_hosts =
        map_scenario_hosts(read_hosts_file(options.hosts_file), hosts.size(), options.hosts_file);
  const std::vector<std::string> launch_prefix = split_words(options.launch_prefix);
  auto file = [&](const std::string& label, const char* suffix) {
    return (fs::path(plan.work_dir) / (label + suffix)).string();
  };
  // Where each process runs: a prefix that gets it there, the address it listens on, its label.
  auto place = [&](PlannedProcess& p, int host, std::vector<std::string> args) {
    std::vector<std::string> where;
    if (plan.mode == "netns")
      where = {"ip", "netns", "exec",
               host < 0 ? plan.netns->rendezvous_ns
                        : plan.netns->host_ns[static_cast<std::size_t>(host)]};
    if (plan.mode == "hosts") {
      where = split_words(options.ssh_command);
      where.insert(where.end(),
                   {cluster_hosts[host < 0 ? 0 : static_cast<std::size_t>(host)], "--"});
      where.insert(where.end(), launch_prefix.begin(), launch_prefix.end());
      // The daemon ends with its ssh connection: a launcher that stops (or dies) stops it.
      args.insert(args.begin() + 1, "--stop-on-eof");
      p.remote_from = where.size() - launch_prefix.size();
    }
    p.argv = where;
    p.argv.insert(p.argv.end(), args.begin(), args.end());
  };
  auto listen_of = [&](int host, bool rendezvous) {
    const std::string port =
        rendezvous && plan.mode != "loopback" ? std::to_string(kRendezvousPort) : "0";
    if (plan.mode == "loopback") return "127.0.0.1:" + port;
    if (plan.mode == "netns")
      return (host < 0 ? plan.netns->rendezvous_ip
                       : plan.netns->host_ip[static_cast<std::size_t>(host)]) +
             ":" + port;
    if (plan.mode == "slurm") return "auto:" + port;  // the task's own machine
    return cluster_hosts[host < 0 ? 0 : static_cast<std::size_t>(host)] + ":" + port;
  };

  plan.rendezvous.label = runner::process_label(kNoRank);
  plan.rendezvous.events_file = file(plan.rendezvous.label, ".events.jsonl");
  plan.rendezvous.log_file = file(plan.rendezvous.label, ".log");
  {
    auto args = daemon_args(scenario, options, plan.rendezvous.events_file);
    args.insert(args.begin(), paths.rendezvous);
    args.insert(args.end(), {"--listen", listen_of(-1, true)});
    place(plan.rendezvous, -1, args);
  }
  for (Rank r = 0; r < processes; ++r) {
    if (std::find(plan.absent.begin(), plan.absent.end(), r) != plan.absent.end()) continue;
    PlannedProcess p;
    p.rank = r;
    p.label = runner::process_label(r);
    p.events_file = file(p.label, ".events.jsonl");
    p.log_file = file(p.label, ".log");
    const int host = host_of[static_cast<std::size_t>(r)];
    auto args = daemon_args(scenario, options, p.events_file);
    args.insert(args.begin(), paths.node);
    // The host label is the scenario's host name in every mode, as in SimGrid: ranks of one
    // scenario host are host-mates, also when slots= puts several scenario hosts on one machine.
    const std::string label = hosts[static_cast<std::size_t>(host)].host;
    args.insert(args.end(), {"--rank", std::to_string(r), "--rendezvous", kRendezvousPlaceholder,
                             "--listen", listen_of(host, false), "--host-label", label});
    // The site (StartedInput.site), in every mode: deployment knowledge like the host label.
    if (const int c = site_of[static_cast<std::size_t>(r)]; c >= 0)
      args.insert(args.end(),
                  {"--site", scenario.network.clusters[static_cast<std::size_t>(c)].name});
    place(p, host, args);
    plan.nodes.push_back(std::move(p));
  }
  plan_relays(scenario, options, plan);
  if (plan.mode == "slurm")
    plan.slurm_script = slurm_script(
        scenario, options, plan, manifest_to_json(make_manifest(plan, scenario, options)).dump(2));
  return plan;
}

std::string literal_shell_words(const std::vector<std::string>& words) {
  std::string line;
  for (const std::string& word : words) {
    if (!line.empty()) line += ' ';
    const bool plain = !word.empty() && word.find_first_not_of(
                                            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                            "0123456789-_./:=@,+") == std::string::npos;
    if (plain) {
      line += word;
      continue;
    }
    line += '\'';
    for (char c : word) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += '\'';
  }
  return line;
}

std::vector<std::string> exec_argv(const PlannedProcess& process, const std::string& rendezvous) {
  std::vector<std::string> argv = process.argv;
  for (std::string& arg : argv)
    if (arg == kRendezvousPlaceholder) arg = rendezvous;
  if (process.remote_from == 0 || process.remote_from >= argv.size()) return argv;
  const std::vector<std::string> remote(argv.begin() + static_cast<long>(process.remote_from),
                                        argv.end());
  argv.resize(process.remote_from);
  argv.push_back(literal_shell_words(remote));
  return argv;
}

std::string shell_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& arg : argv) {
    if (!line.empty()) line += ' ';
    const bool plain =
        !arg.empty() &&
        arg.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+{}$") ==
            std::string::npos;
    if (plain) {
      line += arg;
    } else if (arg.find('$') != std::string::npos) {
      line += '"' + arg + '"';  // shell variables of the Slurm script expand
    } else {
      std::string quoted = "'";
      for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      line += quoted + "'";
    }
  }
  return line;
}

}  // namespace tsunagi::realnet
