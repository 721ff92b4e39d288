// How a run ended, as every backend says it. C++17-clean: the ns-3 backend includes it.
#pragma once

#include <string>

#include "tsunagi/model/types.hpp"

namespace tsunagi::runner {

struct RunSummary {
  TimeNs end = 0;              // backend clock at the last exit (ns since the run's start)
  bool all_exited_ok = false;  // every process exited with ok = true
  std::string failure;         // the first failure, empty when all_exited_ok
  // Why the processes could not see the scenario's topology, so inferred groups have nothing
  // to be right about (realnet on loopback: every RTT is a loopback RTT); empty when they could.
  std::string topology_hidden;
  // Backend clock when a SIGINT stopped the run (interrupt.hpp); -1 when none did.
  TimeNs interrupted_at = -1;
};

}  // namespace tsunagi::runner
