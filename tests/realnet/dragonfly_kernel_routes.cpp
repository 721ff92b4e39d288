// Root only: the kernel forwards along the Dragonfly's routes. Builds each scenario's Dragonfly
// in namespaces from the launcher's own plan (latency scale 0, so every link is a plain veth and
// no delay line runs; routes do not depend on delays), asks every router's kernel for its route
// to every other router's subnet (`ip -n NS route get`), follows the next hops router by router
// and compares each path with the scenario's (dragonfly_router_path, the routes of SimGrid and
// ns-3). Every node's traffic must leave through its own router. dragonfly_plan_test.cpp checks
// the planned commands; this checks what the kernel made of them.
//
// Usage: tsunagi_realnet_dragonfly_routes SCENARIO... (relative to scenarios/)
// Exit: 0 every path is the scenario's, 1 one is not or the build failed, 77 not root (SKIP).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "launcher/netns_dragonfly.hpp"
#include "launcher/netns_session.hpp"
#include "launcher/supervisor.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace rn = tsunagi::realnet;
namespace sc = tsunagi::scenario;

namespace {

std::string output_of(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run " + command);
  std::string text;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) text += buffer;
  if (pclose(pipe) != 0) throw std::runtime_error("`" + command + "` failed: " + text);
  return text;
}

// The word after `key` in `text` ("" when there is none).
std::string word_after(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  for (std::string word; in >> word;)
    if (word == key && in >> word) return word;
  return "";
}

// Which router owns each IPv4 address, as the kernel has them (`ip -o -4 addr show`).
std::map<std::string, int> address_owners(const std::string& prefix, int routers) {
  std::map<std::string, int> owner;
  for (int r = 0; r < routers; ++r) {
    std::istringstream lines(
        output_of("ip -n " + prefix + "s" + std::to_string(r) + " -o -4 addr show"));
    for (std::string line; std::getline(lines, line);) {
      const std::string cidr = word_after(line, "inet");
      if (!cidr.empty()) owner[cidr.substr(0, cidr.find('/'))] = r;
    }
  }
  return owner;
}

// Address k of router r's subnet: its first node is 1, the router itself 254.
std::string subnet_address(int router, int k) {
  const std::string subnet = rn::dragonfly_subnet(router);
  return subnet.substr(0, subnet.rfind('.')) + "." + std::to_string(k);
}

// next[from][to]: the router the kernel of `from` hands a packet for `to`'s subnet to (`from`
// itself when the subnet is its own, -1 when there is no route through a known router).
std::vector<std::vector<int>> kernel_next_hops(const std::string& prefix, int routers) {
  const auto owner = address_owners(prefix, routers);
  std::vector<std::vector<int>> next(static_cast<std::size_t>(routers),
                                     std::vector<int>(static_cast<std::size_t>(routers), -1));
  for (int from = 0; from < routers; ++from)
    for (int to = 0; to < routers; ++to) {
      const std::string route = output_of("ip -n " + prefix + "s" + std::to_string(from) +
                                          " route get " + subnet_address(to, 1));
      const std::string via = word_after(route, "via");
      const auto it = owner.find(via);
      auto& hop = next[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)];
      if (via.empty() && word_after(route, "dev") == "br0") hop = from;
      if (it != owner.end()) hop = it->second;
    }
  return next;
}

std::vector<int> walk(const std::vector<std::vector<int>>& next, int from, int to) {
  std::vector<int> path{from};
  while (path.back() != to && path.size() <= next.size()) {
    const int hop = next[static_cast<std::size_t>(path.back())][static_cast<std::size_t>(to)];
    if (hop < 0 || hop == path.back()) break;  // no route, or delivered on the wrong router
    path.push_back(hop);
  }
  return path;
}

std::string text_of(const std::vector<int>& path) {
  std::string text;
  for (int r : path) text += (text.empty() ? "" : " ") + std::to_string(r);
  return "[" + text + "]";
}

// Nodes have one way out: the default route through their router's bridge address.
int check_nodes(const rn::NetnsPlan& plan, const sc::Scenario& s) {
  int wrong = 0;
  const auto hosts = sc::enumerate_hosts(s.network);
  const int routers = sc::router_count(*s.network.dragonfly);
  for (std::size_t h = 0; h < hosts.size(); ++h) {
    const int own = hosts[h].switch_index;
    const std::string gateway = subnet_address(own, 254);
    const int away = (own + 1) % routers;
    const std::string via = word_after(
        output_of("ip -n " + plan.host_ns[h] + " route get " + subnet_address(away, 1)), "via");
    if (via != gateway) {
      std::cout << "  node " << h << " reaches router " << away << " via '" << via
                << "', not its router " << gateway << '\n';
      ++wrong;
    }
  }
  return wrong;
}

int check_routers(const rn::NetnsPlan& plan, const sc::Scenario& s) {
  const sc::DragonflySpec& spec = *s.network.dragonfly;
  const int routers = sc::router_count(spec);
  const auto next = kernel_next_hops(plan.prefix, routers);
  int wrong = 0;
  for (int from = 0; from < routers; ++from)
    for (int to = 0; to < routers; ++to) {
      const std::vector<int> kernel = walk(next, from, to);
      const std::vector<int> expected = sc::dragonfly_router_path(spec, from, to);
      if (kernel == expected) continue;
      std::cout << "  " << from << " -> " << to << ": kernel " << text_of(kernel) << ", scenario "
                << text_of(expected) << '\n';
      ++wrong;
    }
  return wrong;
}

// Builds one scenario's network, checks it, tears it down (the session's destructor does that
// on every way out, exceptions included).
int check_scenario(const std::string& relative) {
  const sc::Scenario s =
      sc::load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + relative);
  if (!s.network.dragonfly) throw std::invalid_argument(relative + " is not a Dragonfly");
  // The prefix carries this process's pid: the launcher's clean-up of dead runs leaves it alone
  // while the check runs, and removes it if the check is killed.
  const std::string prefix = "tsg" + std::to_string(getpid()) + "-";
  const rn::NetnsPlan plan = rn::plan_netns_dragonfly(s, prefix, {0.0, 1000});
  const std::filesystem::path work =
      std::filesystem::temp_directory_path() / ("tsunagi-dragonfly-routes." + prefix);
  std::filesystem::create_directories(work);
  int wrong = 0;
  {
    rn::Supervisor supervisor;
    rn::NetnsSession session(plan, work.string());
    const auto start = std::chrono::steady_clock::now();
    session.build(supervisor, "", [] { return false; });
    const std::chrono::duration<double> built = std::chrono::steady_clock::now() - start;
    wrong = check_routers(plan, s) + check_nodes(plan, s);
    const int routers = sc::router_count(*s.network.dragonfly);
    std::cout << (wrong == 0 ? "ok: " : "FAILED: ") << relative << ": " << plan.namespaces.size()
              << " namespaces built in " << built.count() << " s; " << routers * routers
              << " router pairs and " << plan.host_ns.size() << " nodes checked, " << wrong
              << " wrong\n";
  }
  std::filesystem::remove_all(work);
  return wrong;
}

}  // namespace

int main(int argc, char** argv) {
  if (geteuid() != 0) {
    std::cout << "SKIP: needs root for network namespaces (run as root, as CI does)\n";
    return 77;
  }
  int wrong = 0;
  try {
    for (int i = 1; i < argc; ++i) wrong += check_scenario(argv[i]);
  } catch (const std::exception& error) {
    std::cout << "FAILED: " << error.what() << '\n';
    return 1;
  }
  return wrong == 0 ? 0 : 1;
}
