// tsunagi-emulate: builds a scenario's emulated network in namespaces (exactly as
// `tsunagi run --backend realnet --net netns` does, same plan and delay lines) and keeps it up
// until SIGINT/SIGTERM, without starting any process. Each host namespace is then a "machine"
// for tools that expect a cluster: the tests start one sshd per host namespace and run
// `--hosts` over ssh, or run a local Slurm whose tasks enter these namespaces.
//
// stdout, one line each, then "ready":
//   tsunagi-emulate rendezvous NS IP
//   tsunagi-emulate host INDEX NAME NS IP        (scenario::enumerate_hosts order)
//   tsunagi-emulate rank RANK NS IP              (the namespace of every rank's host)
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>

#include "launcher/launch_plan.hpp"
#include "launcher/netns_session.hpp"
#include "launcher/supervisor.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace {

using namespace tsunagi;
using namespace tsunagi::realnet;

void print_map(const scenario::Scenario& scenario, const NetnsPlan& net) {
  std::cout << "tsunagi-emulate rendezvous " << net.rendezvous_ns << ' ' << net.rendezvous_ip
            << '\n';
  const auto hosts = scenario::enumerate_hosts(scenario.network);
  for (std::size_t h = 0; h < hosts.size(); ++h)
    std::cout << "tsunagi-emulate host " << h << ' ' << hosts[h].host << ' ' << net.host_ns[h]
              << ' ' << net.host_ip[h] << '\n';
  const auto host_of = scenario::rank_to_host(scenario);
  for (std::size_t r = 0; r < host_of.size(); ++r) {
    const auto h = static_cast<std::size_t>(host_of[r]);
    std::cout << "tsunagi-emulate rank " << r << ' ' << net.host_ns[h] << ' ' << net.host_ip[h]
              << '\n';
  }
}

// Until SIGINT/SIGTERM, or until the delay line dies (the network would be broken).
int hold(Supervisor& supervisor) {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  const timespec tick{0, 200'000'000};
  for (;;) {
    if (sigtimedwait(&stop, nullptr, &tick) > 0) return 0;
    std::vector<ChildLine> lines;
    std::vector<ChildDeath> deaths;
    supervisor.poll(std::chrono::milliseconds(0), lines, deaths);
    for (const ChildDeath& death : deaths) {
      std::cerr << "tsunagi-emulate: " << supervisor.name(death.child) << " died (" << death.how
                << "); tearing the network down\n";
      return 1;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tsunagi-emulate: a scenario's network in namespaces, held until SIGTERM "
      "(docs/realnet.md, \"Clusters in namespaces\")."};
  std::string path, work = ".";
  std::vector<std::string> sets;
  LaunchOptions options;
  app.add_option("SCENARIO", path, "Scenario file (TOML)")->required();
  app.add_option("--set", sets, "Override a scenario key (repeatable)")->allow_extra_args(false);
  app.add_option("--latency-scale", options.latency_scale,
                 "Multiply link latencies (default 50; 1 for site_rtt WANs)");
  app.add_option("--work", work, "Directory for the ip/tc batch files and delayline.log")
      ->capture_default_str();
  app.add_option("--realnet-bin", options.bin_dir, "Directory of tsunagi-delayline");
  CLI11_PARSE(app, argc, argv);
  if (geteuid() != 0) {
    std::cerr << "tsunagi-emulate: needs root (network namespaces)\n";
    return 77;
  }
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  sigprocmask(SIG_BLOCK, &stop, nullptr);  // children unblock them (supervisor.cpp)
  try {
    const scenario::Scenario scenario = scenario::load_scenario_file(path, sets);
    std::filesystem::create_directories(work);
    const NetnsPlan net = plan_netns(scenario, "tsg" + std::to_string(getpid()) + "-",
                                     {options.latency_scale, options.min_delay});
    const DaemonPaths paths = find_daemons(options);
    Supervisor supervisor;
    NetnsSession session(net, std::filesystem::absolute(work).string());
    session.build(supervisor, paths.delayline, [] { return false; });
    print_map(scenario, net);
    std::cout << "tsunagi-emulate ready" << std::endl;
    const int status = hold(supervisor);
    supervisor.stop_all(std::chrono::seconds(2));
    session.tear_down();
    return status;
  } catch (const std::exception& error) {
    std::cerr << "tsunagi-emulate: " << error.what() << '\n';
    return 2;
  }
}
