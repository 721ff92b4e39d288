// The conformance World on ns-3: run_ns3_with and scripted processes. One run per OS process
// (ns-3 keeps global state), which is why every case is its own ctest.
#include "tsunagi/sim/ns3/ns3_backend.hpp"
#include "world.hpp"

namespace tsunagi::conformance {
namespace {

// Endpoints from the backend's address plan (docs/ns3.md): "<host address>:<port>".
class Ns3Directory final : public Directory {
 public:
  explicit Ns3Directory(const scenario::Scenario& scenario) {
    const int ranks = scenario::process_count(scenario);
    for (Rank r = 0; r < ranks; ++r) endpoints_.push_back(sim::ns3::endpoint_of(scenario, r));
    rendezvous_ = sim::ns3::endpoint_of(scenario, kNoRank);
    // Rank 0's host address with a port no process of the run listens on.
    const Endpoint& first = endpoints_.at(0);
    vacant_ = first.substr(0, first.rfind(':')) + ":6999";
  }
  Endpoint endpoint_of(Rank rank) const override {
    return rank == kNoRank ? rendezvous_ : endpoints_.at(static_cast<std::size_t>(rank));
  }
  Endpoint vacant_endpoint() const override { return vacant_; }
  // The cluster router's filter drops the SYN (wan_filter.cpp).
  Endpoint firewalled_endpoint(Rank rank) const override { return endpoint_of(rank); }

 private:
  std::vector<Endpoint> endpoints_;
  Endpoint rendezvous_;
  Endpoint vacant_;
};

class Ns3World final : public World {
 public:
  std::string name() const override { return "ns3"; }
  bool simulated() const override { return true; }

  Outcome run(const scenario::Scenario& scenario, const Scripts& scripts,
              std::chrono::seconds) override {
    return run_scripted(
        scenario, scripts, Ns3Directory(scenario),
        [&](runner::RunObserver& observer, const runner::ProcessFactories& processes) {
          return sim::ns3::run_ns3_with(scenario, observer, sim::ns3::Ns3Options{}, processes);
        });
  }
};

}  // namespace

std::unique_ptr<World> make_world() {
  return std::make_unique<Ns3World>();
}

}  // namespace tsunagi::conformance
