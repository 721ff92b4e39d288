// run_simgrid: one simulated run from platform to summary.
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>  // ~ProcessActor releases ExecPtrs: Exec.hpp defines that
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "engine_setup.hpp"
#include "memory_parts.hpp"
#include "paje_end.hpp"
#include "paje_states.hpp"
#include "platform.hpp"
#include "process_actor.hpp"
#include "time_units.hpp"
#include "tsunagi/runner/driver/interrupt_handler.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"
#include "world.hpp"

namespace tsunagi::sim::simgrid {
namespace {

// The rendezvous starts first: at time 0 it runs before any rank; relays come last.
std::vector<int> start_order(World& world) {
  std::vector<int> order;
  order.reserve(static_cast<std::size_t>(world.process_count()));
  order.push_back(world.table().rendezvous_index());
  for (int index = 0; index < world.process_count(); ++index)
    if (index != order.front()) order.push_back(index);
  return order;
}

void start_actor(World& world, int index, ProcessActor& body) {
  const ActorSlot& slot = world.slot(index);
  const auto simgrid_actor =
      sg4::Actor::create(world.table().row(index).label, slot.host, [&body] { body.run(); });
  // Receiver of the process's mailboxes: messages flow as soon as they are sent.
  world.completions().set_receiver(index, simgrid_actor);
}

// --paje: the host of each process, for its protocol-phase states (paje_states.hpp).
std::map<std::string, std::string> hosts_by_label(World& world) {
  std::map<std::string, std::string> hosts;
  for (int index = 0; index < world.process_count(); ++index)
    hosts[world.table().row(index).label] = world.slot(index).host->get_name();
  return hosts;
}

// The run itself; the Engine (and with it SimGrid's Paje file) is gone when this returns.
runner::RunSummary run_engine(const scenario::Scenario& scenario, runner::RunObserver& observer,
                              const runner::ProcessFactories& processes,
                              const SimgridOptions& options) {
  runner::claim_world_once("run_simgrid");  // one Engine per OS process, no rewinding its clock
  const std::unique_ptr<sg4::Engine> engine = make_engine();
  configure_engine(scenario, options);
  MemoryParts memory;  // TSUNAGI_SIMGRID_MEMORY: what each part takes (memory_parts.hpp)
  const Platform platform =
      build_platform(scenario.network, platform_options(scenario), scenario::relay_slots(scenario));
  memory.mark("platform (per host)", platform.hosts.size());
  PajeStates paje(observer);
  const bool paje_on = !options.paje_file.empty();
  World world(scenario, paje_on ? paje : observer, platform);
  if (paje_on) paje.start(hosts_by_label(world));
  const auto count = static_cast<std::size_t>(world.process_count());
  memory.mark("world (per process)", count);

  // Cores, adapters and SimGrid's actors are made in three passes, each in start order, so the
  // memory of each part can be read apart; neither cores nor adapters touch SimGrid, so the
  // actors start exactly as when each process was made whole in turn.
  const std::vector<int> order = start_order(world);
  std::vector<std::unique_ptr<Process>> cores;
  cores.reserve(count);
  for (int index : order) cores.push_back(processes.make(world.table().row(index)));
  memory.mark("core processes", count);
  // Declared after the world, so actors (and the activities they hold) go first.
  std::vector<std::unique_ptr<ProcessActor>> actors;
  actors.reserve(count);
  for (std::size_t i = 0; i < order.size(); ++i)
    actors.push_back(std::make_unique<ProcessActor>(world, order[i], std::move(cores[i])));
  cores.clear();  // emptied by the moves
  memory.mark("adapters", count);
  for (std::size_t i = 0; i < order.size(); ++i) start_actor(world, order[i], *actors[i]);
  memory.mark("SimGrid actors", count);
  memory.mark_at_first_advance("first instant (stacks, steps)", count);

  runner::reclaim_interrupt_handler();  // SimGrid's own exits at once, outputs unwritten
  engine->run();
  memory.peak(count);
  return world.finish(to_ns(sg4::Engine::get_clock()));
}

}  // namespace

runner::RunSummary run_simgrid_with(const scenario::Scenario& scenario,
                                    runner::RunObserver& observer,
                                    const runner::ProcessFactories& processes,
                                    const SimgridOptions& options) {
  const runner::RunSummary summary = run_engine(scenario, observer, processes, options);
  // A failed run keeps SimGrid's own end: a process still waiting at the end has no exit to
  // end it, and the rest of the trace is what tells why.
  if (!options.paje_file.empty() && summary.all_exited_ok && summary.end > 0)
    close_paje_at(options.paje_file, summary.end);
  return summary;
}

runner::RunSummary run_simgrid(const scenario::Scenario& scenario, runner::RunObserver& observer,
                               const SimgridOptions& options) {
  return run_simgrid_with(scenario, observer, runner::core_roles(), options);
}

}  // namespace tsunagi::sim::simgrid
