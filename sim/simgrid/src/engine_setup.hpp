// The SimGrid Engine of this OS process and the model settings a scenario asks for.
#pragma once

#include <memory>

#include <simgrid/forward.h>

#include "platform.hpp"
#include "tsunagi/scenarios/scenario.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"

namespace tsunagi::sim::simgrid {

// Creates the Engine (one per OS process: SimGrid cannot reset its clock for a second one)
// with SimGrid's own INFO chatter silenced; warnings and errors still show.
std::unique_ptr<sg4::Engine> make_engine();

// Network model and its factors, numeric precision, actor stacks. Call after make_engine and
// before build_platform: SimGrid creates its models with the first zone. docs/simgrid.md
// explains every value. Throws std::invalid_argument for an unknown network model.
void configure_engine(const scenario::Scenario& scenario, const SimgridOptions& options = {});

PlatformOptions platform_options(const scenario::Scenario& scenario);

}  // namespace tsunagi::sim::simgrid
