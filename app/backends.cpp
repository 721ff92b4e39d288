// Dispatch to the compiled-in backends. New backends (ns-3, realnet) add a branch here and a
// name in available_backends(); nothing else in the program knows which backends exist.
#include "backends.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#ifdef TSUNAGI_WITH_SIMGRID
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"
#endif
#ifdef TSUNAGI_WITH_NS3
#include "tsunagi/sim/ns3/ns3_backend.hpp"
#endif
#ifdef TSUNAGI_WITH_REALNET
#include "tsunagi/realnet/realnet_backend.hpp"
#endif

namespace tsunagi::app {

std::vector<std::string> available_backends() {
  std::vector<std::string> names;
#ifdef TSUNAGI_WITH_SIMGRID
  names.emplace_back("simgrid");
#endif
#ifdef TSUNAGI_WITH_NS3
  names.emplace_back("ns3");
#endif
#ifdef TSUNAGI_WITH_REALNET
  names.emplace_back("realnet");
#endif
  return names;
}

bool is_available_backend(const std::string& name) {
  const auto names = available_backends();
  return std::find(names.begin(), names.end(), name) != names.end();
}

runner::RunSummary run_backend(const std::string& backend, const scenario::Scenario& scenario,
                               runner::RunObserver& observer, const BackendOptions& options) {
#ifdef TSUNAGI_WITH_SIMGRID
  if (backend == "simgrid") {
    return sim::simgrid::run_simgrid(scenario, observer,
                                     sim::simgrid::SimgridOptions{options.paje_file});
  }
#endif
#ifdef TSUNAGI_WITH_NS3
  if (backend == "ns3") {
    sim::ns3::Ns3Options ns3_options;
    ns3_options.pcap_dir = options.pcap_dir;
    return sim::ns3::run_ns3(scenario, observer, ns3_options);
  }
#endif
#ifdef TSUNAGI_WITH_REALNET
  if (backend == "realnet") {
    // The factors describe how the simulators' links differ from this real network.
    if (scenario.network.factors != scenario::NetworkFactors{})
      std::cerr << "note: realnet ignores [network.factors]: they describe the real network it "
                   "runs on (docs/calibration.md)\n";
    return realnet::run_realnet(scenario, observer, realnet_options());
  }
#endif
  (void)scenario;
  (void)observer;
  (void)options;
  throw std::invalid_argument("backend '" + backend + "' is not compiled into this tsunagi");
}

#ifdef TSUNAGI_WITH_REALNET
realnet::LaunchOptions& realnet_options() {
  static realnet::LaunchOptions options;
  return options;
}
#endif

}  // namespace tsunagi::app
