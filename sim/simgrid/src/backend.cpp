// run_simgrid: one simulated run from platform to summary.
#include <memory>
#include <stdexcept>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>  // ~ProcessActor releases ExecPtrs: Exec.hpp defines that
#include <simgrid/s4u/Mailbox.hpp>

#include "engine_setup.hpp"
#include "platform.hpp"
#include "process_actor.hpp"
#include "time_units.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"
#include "world.hpp"

namespace tsunagi::sim::simgrid {
namespace {

std::unique_ptr<ProcessActor> start_actor(World& world, int index,
                                          const runner::ProcessFactories& processes) {
  auto actor =
      std::make_unique<ProcessActor>(world, index, processes.make(world.table().row(index)));
  ProcessActor* body = actor.get();
  const ActorSlot& slot = world.slot(index);
  const auto simgrid_actor =
      sg4::Actor::create(world.table().row(index).label, slot.host, [body] { body->run(); });
  // Receiver of the process's mailboxes: messages flow as soon as they are sent.
  world.completions().set_receiver(index, simgrid_actor);
  return actor;
}

}  // namespace

runner::RunSummary run_simgrid_with(const scenario::Scenario& scenario,
                                    runner::RunObserver& observer,
                                    const runner::ProcessFactories& processes,
                                    const SimgridOptions& options) {
  runner::claim_world_once("run_simgrid");  // one Engine per OS process, no rewinding its clock
  const std::unique_ptr<sg4::Engine> engine = make_engine();
  configure_engine(scenario, options);
  const Platform platform =
      build_platform(scenario.network, platform_options(scenario), scenario::relay_slots(scenario));
  World world(scenario, observer, platform);

  // Declared after the world, so actors (and the activities they hold) go first.
  std::vector<std::unique_ptr<ProcessActor>> actors;
  actors.reserve(static_cast<std::size_t>(world.process_count()));
  // The rendezvous starts first: at time 0 it runs before any rank; relays come last.
  const int rendezvous = world.table().rendezvous_index();
  actors.push_back(start_actor(world, rendezvous, processes));
  for (int index = 0; index < world.process_count(); ++index)
    if (index != rendezvous) actors.push_back(start_actor(world, index, processes));

  engine->run();
  return world.finish(to_ns(sg4::Engine::get_clock()));
}

runner::RunSummary run_simgrid(const scenario::Scenario& scenario, runner::RunObserver& observer,
                               const SimgridOptions& options) {
  return run_simgrid_with(scenario, observer, runner::core_roles(), options);
}

}  // namespace tsunagi::sim::simgrid
