// Paper 001's 11-cluster layout (scenarios/papers/ssock-11-small.toml) on ns-3 without relays:
// every process, ranks and relay hosts alike, connects directly to every other one, as in the
// paper's plain-sockets experiment. Each connect's outcome, decided by the packet filters at
// the routers, must be scenario::policy_outcome's; dropped SYNs time out on the scenario's SYN
// schedule (1 s doubling, 6 retries: 127 s).
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "ns3_support.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;

namespace {

struct Who {
  std::string label;
  Endpoint endpoint;
  scenario::Place place;
};

// Every rank, then every relay host, with its endpoint and where it sits.
std::vector<Who> everyone(const scenario::Scenario& s) {
  std::vector<Who> all;
  const std::vector<int> clusters = scenario::rank_clusters(s);
  for (Rank r = 0; r < s.protocol.processes; ++r)
    all.push_back({"r" + std::to_string(r), sim::ns3::endpoint_of(s, r),
                   scenario::Place{clusters[static_cast<std::size_t>(r)], false}});
  const auto slots = scenario::relay_slots(s);
  for (std::size_t i = 0; i < slots.size(); ++i)
    all.push_back(
        {slots[i].host, sim::ns3::relay_endpoint_of(s, static_cast<int>(i)),
         scenario::Place{slots[i].cluster, slots[i].at == scenario::RelayPlacement::Gateway}});
  return all;
}

}  // namespace

TEST_CASE("ns3 wan: ssock-11-small without relays, every direct connect meets its policy") {
  const scenario::Scenario s =
      scenario::load_scenario_file(TSUNAGI_SOURCE_DIR "/scenarios/papers/ssock-11-small.toml",
                                   {"protocol.plan=all", "workload.kind=pingpong"});
  const std::vector<Who> all = everyone(s);
  REQUIRE(all.size() == 33);  // 22 ranks, 11 relay hosts

  std::map<std::string, std::vector<Input>> inputs;
  ns3test::Observer observer;
  auto script = [&all](std::size_t self_index) {
    return [&all, self_index](ns3test::Scripted& self, const Input& input) {
      if (std::holds_alternative<StartedInput>(input.event)) {
        for (std::size_t j = 0; j < all.size(); ++j)
          if (j != self_index)
            self.command(ConnectCmd{static_cast<ConnId>(j + 1), all[j].endpoint});
        self.command(ArmTimerCmd{1, 150 * kNsPerSec});  // after the last SYN time-out
      }
      if (std::holds_alternative<TimerFiredInput>(input.event)) self.command(ExitCmd{true, ""});
    };
  };
  auto index_of = [&all](const std::string& label) {
    for (std::size_t i = 0; i < all.size(); ++i)
      if (all[i].label == label) return i;
    throw std::logic_error("no process " + label);
  };
  const auto summary = sim::ns3::run_ns3_with(
      s, observer, {},
      runner::ProcessFactories{
          [&](Rank rank) {
            const std::string label = "r" + std::to_string(rank);
            return std::make_unique<ns3test::Scripted>(script(index_of(label)), &inputs[label]);
          },
          [&] {
            return std::make_unique<ns3test::Scripted>(ns3test::Script{}, &inputs["rendezvous"]);
          },
          [&](const std::string& host) {
            return std::make_unique<ns3test::Scripted>(script(index_of(host)), &inputs[host]);
          }});
  CHECK(summary.all_exited_ok);

  std::map<scenario::ConnectOutcome, int> count;
  std::set<TimeNs> drop_times;
  int mismatches = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::map<ConnId, std::pair<scenario::ConnectOutcome, TimeNs>> seen;
    for (const Input& input : inputs[all[i].label]) {
      if (const auto* c = std::get_if<ConnectedInput>(&input.event))
        seen[c->conn] = {scenario::ConnectOutcome::Accept, input.now};
      if (const auto* f = std::get_if<ConnectFailedInput>(&input.event))
        seen[f->conn] = {f->reason == ConnectFailure::Refused ? scenario::ConnectOutcome::Refuse
                                                              : scenario::ConnectOutcome::Drop,
                         input.now};
    }
    for (std::size_t j = 0; j < all.size(); ++j) {
      if (i == j) continue;
      const auto expected = scenario::policy_outcome(s.network, all[i].place, all[j].place);
      auto it = seen.find(static_cast<ConnId>(j + 1));
      const bool same = it != seen.end() && it->second.first == expected;
      if (!same) {
        ++mismatches;
        UNSCOPED_INFO(all[i].label << " -> " << all[j].label << " differs from the policy");
      }
      if (same && expected == scenario::ConnectOutcome::Drop) drop_times.insert(it->second.second);
      ++count[expected];
    }
  }
  CHECK(mismatches == 0);
  CHECK(count[scenario::ConnectOutcome::Accept] > 0);
  CHECK(count[scenario::ConnectOutcome::Drop] > 0);
  // Every dropped connect gave up on Linux's schedule: SYNs at 0, 1, 3, ..., 63 s, then 127 s.
  REQUIRE(!drop_times.empty());
  CHECK(*drop_times.begin() == 127 * kNsPerSec);
  CHECK(*drop_times.rbegin() == 127 * kNsPerSec);
  WARN("ssock-11-small direct: " << count[scenario::ConnectOutcome::Accept] << " accepted, "
                                 << count[scenario::ConnectOutcome::Drop] << " dropped of "
                                 << all.size() * (all.size() - 1));
}
