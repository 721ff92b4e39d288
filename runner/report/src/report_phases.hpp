// The protocol phases the report's timeline colours, each started by one decision kind
// (report_phases.cpp), and the time axis that gives every phase a readable width.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tsunagi::runner::report {

struct Phase {
  const char* kind;  // the decision that starts it; "" for the first phase
  const char* name;  // what the process does from then on
  const char* colour;
};

// Every phase in the order a run goes through them; index 0 is "starting" (registering and,
// for ranks, probing RTTs), before any phase-starting decision.
std::span<const Phase> phases();

// The index in phases() of the phase `kind` starts, or -1 when it starts none.
int phase_index(const std::string& kind);

// A time axis on [0, end] in which each stretch between two phase boundaries gets at least half
// an equal share of the width, whatever its length: an 11 s inference and a 2 ms workload both
// show. Positions are fractions of the width; the mapping is piecewise linear.
class PhaseAxis {
 public:
  // `boundaries`: when each phase first began anywhere (any order, duplicates allowed).
  PhaseAxis(std::vector<std::int64_t> boundaries, std::int64_t end_ns);
  double at(double t_ns) const;    // 0 .. 1
  double time_at(double u) const;  // the inverse: ns at position u
  std::int64_t end_ns() const { return times_.back(); }
  // "t0,u0 t1,u1 ...": the breakpoints, for the page's script to map times the same way.
  std::string breakpoints() const;

 private:
  std::vector<std::int64_t> times_;  // 0 = first < ... < last = end
  std::vector<double> at_;           // their positions, 0 .. 1
};

}  // namespace tsunagi::runner::report
