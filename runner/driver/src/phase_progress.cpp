// The protocol phase of a run for progress lines. See phase_progress.hpp.
#include "tsunagi/runner/driver/phase_progress.hpp"

#include <cmath>
#include <cstdio>

namespace tsunagi::runner {

const char* phase_name(PhaseProgress::Phase phase) {
  switch (phase) {
    case PhaseProgress::Phase::Registering:
      return "registering";
    case PhaseProgress::Phase::Inference:
      return "inference";
    case PhaseProgress::Phase::Connecting:
      return "connecting";
    case PhaseProgress::Phase::Workload:
      return "workload";
    case PhaseProgress::Phase::ShuttingDown:
      return "shutting down";
  }
  return "?";
}

void PhaseProgress::enter(Phase next, double wall) {
  // Phases only move forward: a late trace of an earlier phase (a rank's plan after another's
  // routes) must not move the line back.
  if (static_cast<int>(next) <= static_cast<int>(phase_)) return;
  phase_ = next;
  phase_started_ = wall;
}

void PhaseProgress::on_trace(const std::string& kind, double wall) {
  if (kind == "register_retry") {
    ++retries_;
  } else if (kind == "directory") {
    enter(Phase::Inference, wall);
  } else if (kind == "rtt_view") {
    ++views_;
  } else if (kind == "groups" || kind == "hierarchy") {
    enter(Phase::Connecting, wall);
  } else if (kind == "plan") {
    enter(Phase::Connecting, wall);
    ++plans_;
  } else if (kind == "routes") {
    enter(Phase::Connecting, wall);
    if (++routes_ == ranks_) enter(Phase::Workload, wall);
  } else if (kind == "all_settled") {
    enter(Phase::Workload, wall);
  } else if (kind == "shutdown") {
    enter(Phase::ShuttingDown, wall);
  }
}

std::string PhaseProgress::eta(int done, int total, double wall) const {
  const double elapsed = wall - phase_started_;
  if (total <= 0 || done * 10 < total || done >= total || elapsed <= 0) return {};
  const double left = elapsed * static_cast<double>(total - done) / done;
  char text[48];
  std::snprintf(text, sizeof text, ", ETA %.0f s", std::ceil(left));
  return text;
}

std::string PhaseProgress::describe(std::uint64_t rtt_probes, double wall) const {
  char text[160];
  const char* name = phase_name(phase_);
  switch (phase_) {
    case Phase::Registering:
      std::snprintf(text, sizeof text, "%s: %d connects to the rendezvous retried", name, retries_);
      return text;
    case Phase::Inference:
      if (views_ > 0) {
        std::snprintf(text, sizeof text, "%s: %llu RTT probes, %d of %d ranks done probing%s", name,
                      static_cast<unsigned long long>(rtt_probes), views_, ranks_,
                      eta(views_, ranks_, wall).c_str());
      } else {
        std::snprintf(text, sizeof text, "%s: %llu RTT probes", name,
                      static_cast<unsigned long long>(rtt_probes));
      }
      return text;
    case Phase::Connecting:
      std::snprintf(text, sizeof text, "%s: plans %d of %d, routes %d of %d%s", name, plans_,
                    ranks_, routes_, ranks_, eta(routes_, ranks_, wall).c_str());
      return text;
    case Phase::Workload:
      std::snprintf(text, sizeof text, "%s: running on %d ranks", name, ranks_);
      return text;
    case Phase::ShuttingDown:
      std::snprintf(text, sizeof text, "%s: %d of %d ranks exited%s", name, exits_, ranks_,
                    eta(exits_, ranks_, wall).c_str());
      return text;
  }
  return name;
}

}  // namespace tsunagi::runner
