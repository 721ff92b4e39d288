// The Dragonfly in namespaces (launcher/netns_dragonfly.cpp), checked on the planned commands
// without root: every router's static routes, followed hop by hop from the `route add` lines,
// give the scenario's router path (the one SimGrid and ns-3 use) for every ordered pair.
#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "launcher/netns_dragonfly.hpp"
#include "tsunagi/scenarios/dragonfly.hpp"
#include "tsunagi/scenarios/loader.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace rn = tsunagi::realnet;
using namespace tsunagi;

namespace {

scenario::Scenario load(const std::string& relative) {
  return scenario::load_scenario_file(std::string(TSUNAGI_SOURCE_DIR) + "/scenarios/" + relative);
}

struct Route {
  std::string subnet, via;
};

// "route add SUBNET via ADDR dev IF" lines of router r's namespace.
std::vector<Route> routes_of(const rn::NetnsPlan& plan, int r) {
  std::vector<Route> out;
  for (const std::string& line : plan.ns_batch.at(plan.prefix + "s" + std::to_string(r))) {
    std::istringstream in(line);
    std::string route, add, subnet, via, address;
    in >> route >> add >> subnet >> via >> address;
    if (route == "route" && add == "add" && via == "via") out.push_back({subnet, address});
  }
  return out;
}

// Which router owns each address of the router links ("addr add A/30 dev lN" lines).
std::map<std::string, int> link_addresses(const rn::NetnsPlan& plan, int routers) {
  std::map<std::string, int> owner;
  for (int r = 0; r < routers; ++r)
    for (const std::string& line : plan.ns_batch.at(plan.prefix + "s" + std::to_string(r))) {
      std::istringstream in(line);
      std::string addr, add, cidr, dev, ifname;
      in >> addr >> add >> cidr >> dev >> ifname;
      if (addr == "addr" && add == "add" && ifname.rfind('l', 0) == 0)
        owner[cidr.substr(0, cidr.find('/'))] = r;
    }
  return owner;
}

std::vector<int> walk(const rn::NetnsPlan& plan, const std::map<std::string, int>& owner, int from,
                      int to, int routers) {
  std::vector<int> path{from};
  const std::string target = rn::dragonfly_subnet(to);
  for (int at = from; at != to && static_cast<int>(path.size()) <= routers;) {
    int next = -1;
    for (const Route& route : routes_of(plan, at))
      if (route.subnet == target) next = owner.at(route.via);
    if (next < 0) break;  // no route: the path stays short and the check fails
    path.push_back(at = next);
  }
  return path;
}

void check_every_route(const scenario::Scenario& s) {
  const rn::NetnsPlan plan = rn::plan_netns_dragonfly(s, "tsgT-", {});
  const int routers = scenario::router_count(*s.network.dragonfly);
  const auto owner = link_addresses(plan, routers);
  for (int from = 0; from < routers; ++from)
    for (int to = 0; to < routers; ++to) {
      INFO(from << " -> " << to);
      CHECK(walk(plan, owner, from, to, routers) ==
            scenario::dragonfly_router_path(*s.network.dragonfly, from, to));
    }
  // One host namespace per node, and the rendezvous on router 0's subnet.
  CHECK(plan.host_ns.size() == scenario::enumerate_hosts(s.network).size());
  CHECK(plan.rendezvous_ip.rfind("10.128.0.", 0) == 0);
}

}  // namespace

TEST_CASE("dragonfly in namespaces: every planned route of dragonfly-16 is the scenario's") {
  check_every_route(load("teaching/dragonfly-16.toml"));
}

TEST_CASE("dragonfly in namespaces: every planned route of dragonfly-64 is the scenario's") {
  check_every_route(load("teaching/dragonfly-64.toml"));
}
