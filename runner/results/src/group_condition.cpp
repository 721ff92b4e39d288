// When switch-group inference is guaranteed right (docs/tree-inference.md, "When group
// inference is right"), judged on the scenario's exact route RTTs. The core's cut rule
// (model/src/topology/switch_inference.cpp) picks, in each node's sorted RTT row, the innermost
// change of step within tie_tolerance of the largest one that is significant. On exact rows the
// RTTs to one switch are equal, so for every switch S holding processes on two or more hosts:
//   a = RTT to a switch-mate on another host, b = RTT to the nearest other switch with processes,
//   G = the largest step between consecutive distinct RTTs in the row;
//   (1) a < b and b >= (1 + min_jump_ratio) a        the switch step is significant,
//   (2) b - a >= (1 - tie_tolerance) G                 and ties with or beats every other step,
//   (3) colocated_ratio = 0 or a > colocated_ratio b   and is not read as a host boundary.
// Then every node's cut lies exactly at its switch, and every group is its switch. A switch
// whose processes share one host is only safe if no other such switch is nearest to it.
#include "group_condition.hpp"

#include <algorithm>
#include <set>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::runner {
namespace {

constexpr std::uint64_t kProbeBytes = 64;  // the nodes' RTT probe (model/src/node)

// Processes per switch, and on how many different hosts.
struct SwitchLoad {
  int processes = 0;
  std::set<int> hosts;
};

std::vector<SwitchLoad> loads_of(const scenario::Scenario& scenario) {
  const auto hosts = scenario::enumerate_hosts(scenario.network);
  std::vector<SwitchLoad> loads(scenario.network.switches.size());
  for (int host : scenario::rank_to_host(scenario)) {
    SwitchLoad& load =
        loads[static_cast<std::size_t>(hosts[static_cast<std::size_t>(host)].switch_index)];
    ++load.processes;
    load.hosts.insert(host);
  }
  return loads;
}

std::string fails(const std::string& name, const std::string& why) {
  return "switch " + name + ": " + why;
}

// "" when switch s meets (1)-(3), else why not.
std::string check_switch(std::size_t s, const std::vector<std::vector<TimeNs>>& rtt,
                         const std::vector<SwitchLoad>& loads, const InferenceConfig& cfg,
                         const std::string& name) {
  const TimeNs a = rtt[s][s];
  std::set<TimeNs> row{a};
  TimeNs b = -1;
  for (std::size_t o = 0; o < rtt.size(); ++o) {
    if (o == s || loads[o].processes == 0) continue;
    row.insert(rtt[s][o]);
    if (b < 0 || rtt[s][o] < b) b = rtt[s][o];
  }
  if (b < 0) return "";  // one switch: nothing to cut
  if (b <= a) return fails(name, "another switch is as near as its own");
  if (static_cast<double>(b) < (1 + cfg.min_jump_ratio) * static_cast<double>(a))
    return fails(name, "the step to the next switch is below min_jump_ratio");
  TimeNs largest = 0;
  for (auto it = std::next(row.begin()); it != row.end(); ++it)
    largest = std::max(largest, *it - *std::prev(it));
  if (static_cast<double>(b - a) < (1 - cfg.tie_tolerance) * static_cast<double>(largest))
    return fails(name, "a step further out is larger than the switch step beyond tie_tolerance");
  if (cfg.colocated_ratio > 0 &&
      static_cast<double>(a) <= cfg.colocated_ratio * static_cast<double>(b))
    return fails(name, "the switch step is steep enough to be read as a host (colocated_ratio)");
  return "";
}

}  // namespace

GroupCondition group_condition(const scenario::Scenario& scenario) {
  const auto rtt = scenario::switch_route_rtts(scenario.network, kProbeBytes);
  if (!rtt) return {false, "not computed (clusters joined by a WAN)"};
  const std::vector<SwitchLoad> loads = loads_of(scenario);
  const InferenceConfig& cfg = scenario.protocol.inference;
  for (std::size_t s = 0; s < loads.size(); ++s) {
    const std::string& name = scenario.network.switches[s].name;
    if (loads[s].processes == 0) continue;
    if (loads[s].hosts.size() < 2) {
      // All its processes are host-mates: the node's row starts at the next switch, which must
      // not answer the claim (it has its own switch-mates, so it does not when it is safe).
      for (std::size_t o = 0; o < loads.size(); ++o)
        if (o != s && loads[o].processes > 0 && loads[o].hosts.size() < 2)
          return {false, fails(name, "its processes share one host, as do another switch's")};
      continue;
    }
    if (std::string why = check_switch(s, *rtt, loads, cfg, name); !why.empty())
      return {false, why};
  }
  return {true, "holds"};
}

}  // namespace tsunagi::runner
