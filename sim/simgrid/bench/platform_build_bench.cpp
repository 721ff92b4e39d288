// How long the SimGrid platform of a scenario takes to build, and what it is (issue 30).
//
//   simgrid_platform_bench [--routes] SCENARIO [KEY=VALUE ...]   (overrides as in `tsunagi run
//   --set`)
//
// Configures the Engine as a run would, builds the platform and prints one line: hosts, links,
// zones, the CPU time (user + sys) and resident memory the construction took. With --routes it
// then prints every route between two hosts of the platform (the rendezvous and relays
// included) as "from to latency link link ...", one a line, sorted: two builds of the builder
// give the same platform when these lists are equal (diff them). Not timed by any test.
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "engine_setup.hpp"
#include "platform.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace {

namespace sg4 = ::simgrid::s4u;
using tsunagi::sim::simgrid::Platform;

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// Resident set size in MB, from /proc/self/statm (pages).
double resident_mb() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * 4096.0 / 1e6;
}

std::size_t zone_count(const sg4::NetZone* zone) {
  std::size_t count = 1;
  for (const sg4::NetZone* child : zone->get_children()) count += zone_count(child);
  return count;
}

std::vector<sg4::Host*> every_host(const Platform& platform) {
  std::vector<sg4::Host*> hosts = platform.hosts;
  if (platform.rendezvous != nullptr) hosts.push_back(platform.rendezvous);
  hosts.insert(hosts.end(), platform.relays.begin(), platform.relays.end());
  return hosts;
}

void print_routes(const Platform& platform) {
  const std::vector<sg4::Host*> hosts = every_host(platform);
  std::vector<std::string> lines;
  for (const sg4::Host* from : hosts) {
    for (const sg4::Host* to : hosts) {
      std::vector<sg4::Link*> links;
      double latency = 0;
      from->route_to(to, links, &latency);
      char figure[32];
      std::snprintf(figure, sizeof figure, "%.12g", latency);
      std::string line = from->get_name() + " " + to->get_name() + " " + figure;
      for (const sg4::Link* link : links) line += " " + link->get_name();
      lines.push_back(std::move(line));
    }
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string& line : lines) std::printf("%s\n", line.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  try {
    int arg = 1;
    const bool routes = arg < argc && std::string(argv[arg]) == "--routes";
    if (routes) ++arg;
    if (arg >= argc) {
      std::fprintf(stderr, "usage: %s [--routes] SCENARIO [KEY=VALUE ...]\n", argv[0]);
      return 2;
    }
    const std::string path = argv[arg++];
    const std::vector<std::string> overrides(argv + arg, argv + argc);
    const tsunagi::scenario::Scenario scenario =
        tsunagi::scenario::load_scenario_file(path, overrides);
    auto engine = tsunagi::sim::simgrid::make_engine();
    tsunagi::sim::simgrid::configure_engine(scenario);
    const double cpu_before = cpu_seconds();
    const double rss_before = resident_mb();
    const Platform platform = tsunagi::sim::simgrid::build_platform(
        scenario.network, tsunagi::sim::simgrid::platform_options(scenario),
        tsunagi::scenario::relay_slots(scenario));
    const double cpu = cpu_seconds() - cpu_before;
    const double rss = resident_mb() - rss_before;
    std::printf("hosts %zu links %zu zones %zu build_cpu_s %.3f build_rss_mb %.1f\n",
                engine->get_host_count(), engine->get_link_count(),
                zone_count(engine->get_netzone_root()), cpu, rss);
    if (routes) print_routes(platform);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "simgrid_platform_bench: %s\n", e.what());
    return 1;
  }
}
