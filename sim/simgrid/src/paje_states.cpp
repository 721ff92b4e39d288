// Protocol phases as Paje host states (paje_states.hpp).
#include "paje_states.hpp"

#include <array>

#include <simgrid/instr.h>

namespace tsunagi::sim::simgrid {
namespace {

constexpr const char* kStateType = "protocol_phase";

struct PhaseState {
  const char* name;
  const char* colour;  // Paje colours: "r g b" fractions; the report's timeline colours
};

constexpr std::array<PhaseState, 5> kStates = {{
    {"starting", "0.94 0.94 0.94"},   // registering with the rendezvous
    {"inference", "0.62 0.79 0.88"},  // probing RTTs, waiting for the groups
    {"set-up", "0.99 0.82 0.64"},     // connecting along the plan, exchanging routes
    {"workload", "0.99 0.68 0.42"},   // routed: the workload runs (and the overlay settles)
    {"done", "0.85 0.85 0.85"},       // shut down or exited
}};

struct KindPhase {
  const char* kind;
  const char* phase;
};

// The decisions that move the process that traces them to another phase: the rendezvous's
// directory starts inference (for everyone, on_trace), its groups end it; a rank's plan starts its
// set-up and its routes its workload; shutdown (and any exit) ends a process.
constexpr std::array<KindPhase, 8> kKindPhases = {{
    {"directory", "inference"},
    {"rtt_view", "inference"},
    {"groups", "set-up"},
    {"tree", "set-up"},
    {"plan", "set-up"},
    {"routes", "workload"},
    {"all_settled", "workload"},
    {"shutdown", "done"},
}};

}  // namespace

const char* paje_phase_of(const std::string& kind) {
  for (const KindPhase& entry : kKindPhases)
    if (kind == entry.kind) return entry.phase;
  return nullptr;
}

void PajeStates::start(std::map<std::string, std::string> host_of) {
  TRACE_host_state_declare(kStateType);
  for (const PhaseState& state : kStates)
    TRACE_host_state_declare_value(kStateType, state.name, state.colour);
  for (auto& [proc, host] : host_of) set(processes_[proc] = {std::move(host)}, "starting");
}

void PajeStates::set(Process& process, const char* phase) {
  process.phase = phase;
  TRACE_host_set_state(process.host.c_str(), kStateType, phase);
}

void PajeStates::set(const std::string& proc, const char* phase) {
  const auto it = processes_.find(proc);
  if (it != processes_.end()) set(it->second, phase);
}

void PajeStates::on_trace(const std::string& proc, TimeNs now, const TraceCmd& trace) {
  if (const char* phase = paje_phase_of(trace.kind)) set(proc, phase);
  // The rendezvous's directory means every process has registered: the ranks probe from now
  // on, though they trace nothing of their own until their RTT view is complete.
  if (trace.kind == "directory")
    for (auto& [label, process] : processes_)
      if (process.phase == kStates.front().name) set(process, "inference");
  next_.on_trace(proc, now, trace);
}

void PajeStates::on_exit(const std::string& proc, TimeNs now, const ExitCmd& exit) {
  set(proc, "done");
  next_.on_exit(proc, now, exit);
}

}  // namespace tsunagi::sim::simgrid
