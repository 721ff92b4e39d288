// The conformance World on SimGrid: run_simgrid_with and scripted processes. One run per OS
// process (SimGrid's Engine cannot be reset), which is why every case is its own ctest.
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"
#include "world.hpp"

namespace tsunagi::conformance {
namespace {

// Endpoints as the SimGrid backend hands them out (docs/simgrid.md): "<host>:<slot>", the slot
// counting the ranks before this one on the same host.
class SimgridDirectory final : public Directory {
 public:
  explicit SimgridDirectory(const scenario::Scenario& scenario) {
    const auto hosts = scenario::enumerate_hosts(scenario.network);
    const auto host_of = scenario::rank_to_host(scenario);
    int slot = 0;
    for (std::size_t r = 0; r < host_of.size(); ++r) {
      slot = (r > 0 && host_of[r - 1] == host_of[r]) ? slot + 1 : 0;
      endpoints_.push_back(hosts[static_cast<std::size_t>(host_of[r])].host + ":" +
                           std::to_string(slot));
    }
    // A slot no process has on rank 0's host: that host exists, nobody listens there.
    vacant_ = hosts[static_cast<std::size_t>(host_of.at(0))].host + ":99";
  }
  Endpoint endpoint_of(Rank rank) const override {
    return rank == kNoRank ? sim::simgrid::kRendezvousEndpoint
                           : endpoints_.at(static_cast<std::size_t>(rank));
  }
  Endpoint vacant_endpoint() const override { return vacant_; }
  // The scenario's cluster policy drops the SYN (actor_wan.cpp).
  Endpoint firewalled_endpoint(Rank rank) const override { return endpoint_of(rank); }

 private:
  std::vector<Endpoint> endpoints_;
  Endpoint vacant_;
};

class SimgridWorld final : public World {
 public:
  std::string name() const override { return "simgrid"; }
  bool simulated() const override { return true; }

  Outcome run(const scenario::Scenario& scenario, const Scripts& scripts,
              std::chrono::seconds) override {
    return run_scripted(
        scenario, scripts, SimgridDirectory(scenario),
        [&](runner::RunObserver& observer, const runner::ProcessFactories& processes) {
          return sim::simgrid::run_simgrid_with(scenario, observer, processes);
        });
  }
};

}  // namespace

std::unique_ptr<World> make_world() {
  return std::make_unique<SimgridWorld>();
}

}  // namespace tsunagi::conformance
