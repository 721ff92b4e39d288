// The backends this build of tsunagi can run a scenario on.
#pragma once

#include <string>
#include <vector>

#include "tsunagi/runner/driver/observer.hpp"
#include "tsunagi/runner/results/result.hpp"
#include "tsunagi/scenarios/scenario.hpp"
#ifdef TSUNAGI_WITH_REALNET
#include "tsunagi/realnet/realnet_backend.hpp"
#endif

namespace tsunagi::app {

// What some backends take besides the scenario.
struct BackendOptions {
  std::string pcap_dir;   // ns3: write per-host pcap files here (must exist); empty: none
  std::string paje_file;  // simgrid: write SimGrid's Paje trace here; empty: none
};

// Names accepted by --backend, in the order they are listed to users.
std::vector<std::string> available_backends();

bool is_available_backend(const std::string& name);

// Runs the scenario to completion on `backend` (which must be available), telling `observer`
// everything that happens. Throws std::exception when the backend cannot run it at all.
runner::RunSummary run_backend(const std::string& backend, const scenario::Scenario& scenario,
                               runner::RunObserver& observer, const BackendOptions& options = {});

#ifdef TSUNAGI_WITH_REALNET
// The realnet launcher's options; `tsunagi run` fills them from its command line.
realnet::LaunchOptions& realnet_options();
#endif

}  // namespace tsunagi::app
