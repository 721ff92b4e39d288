// Fixture: the core must not include a backend.
#include <simgrid/s4u/Actor.hpp>  // expect-violation: includes <simgrid/s4u/Actor.hpp> (SimGrid)
#include "tsunagi/scenarios/scenario.hpp"  // expect-violation: includes "tsunagi/scenarios/scenario.hpp" (an outer layer of tsunagi)

int rank() {
  return 0;
}
