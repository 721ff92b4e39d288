// run_simgrid: one simulated run from platform to summary.
#include <memory>
#include <stdexcept>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "engine_setup.hpp"
#include "platform.hpp"
#include "process_actor.hpp"
#include "time_units.hpp"
#include "tsunagi/model/roles.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"
#include "world.hpp"

namespace tsunagi::sim::simgrid {
namespace {

// SimGrid keeps one Engine per OS process and cannot rewind its clock.
void claim_the_engine() {
  static bool claimed = false;
  if (claimed)
    throw std::logic_error("run_simgrid runs once per OS process; start a new process per run");
  claimed = true;
}

std::unique_ptr<ProcessActor> start_actor(World& world, int index, std::unique_ptr<Process> core) {
  auto actor = std::make_unique<ProcessActor>(world, index, std::move(core));
  ProcessEntry& entry = world.process(index);
  ProcessActor* body = actor.get();
  const auto simgrid_actor = sg4::Actor::create(entry.label, entry.host, [body] { body->run(); });
  // Messages flow as soon as they are sent, whether or not a get is posted yet.
  entry.inbox->set_receiver(simgrid_actor);
  return actor;
}

}  // namespace

SimgridRunSummary run_simgrid_with(const scenario::Scenario& scenario,
                                   runner::RunObserver& observer, const NodeFactory& make_node,
                                   const RendezvousFactory& make_rendezvous) {
  claim_the_engine();
  const std::unique_ptr<sg4::Engine> engine = make_engine();
  configure_engine(scenario);
  const Platform platform = build_platform(scenario.network, platform_options(scenario),
                                           scenario::relay_slots(scenario));
  World world(scenario, observer, platform);

  // Declared after the world, so actors (and the activities they hold) go first.
  std::vector<std::unique_ptr<ProcessActor>> actors;
  actors.reserve(static_cast<std::size_t>(world.process_count()));
  // The rendezvous starts first: at time 0 it runs before any rank.
  actors.push_back(start_actor(world, world.rendezvous_index(), make_rendezvous()));
  for (int index = 0; index < world.rendezvous_index(); ++index)
    actors.push_back(start_actor(world, index, make_node(world.process(index).rank)));
  // Relay daemons (WAN scenarios) after the ranks, so single-LAN runs start exactly as before.
  for (int index = world.rendezvous_index() + 1; index < world.process_count(); ++index)
    actors.push_back(start_actor(world, index, make_relay()));

  engine->run();

  SimgridRunSummary summary;
  summary.simulated_end = world.finish(to_ns(sg4::Engine::get_clock()));
  summary.all_exited_ok = world.all_exited_ok();
  summary.failure = world.failure();
  return summary;
}

SimgridRunSummary run_simgrid(const scenario::Scenario& scenario, runner::RunObserver& observer) {
  return run_simgrid_with(
      scenario, observer, [](Rank) { return make_node(); }, [] { return make_rendezvous(); });
}

}  // namespace tsunagi::sim::simgrid
