// Memory by part of a SimGrid run (issue 30): with TSUNAGI_SIMGRID_MEMORY set, run_simgrid
// prints to stderr what each part of the run took when it was made — the platform, the world
// (process table, doorbells), the core processes, the adapters, SimGrid's actors — and what the
// first instant of the simulation added (every actor has run its first step: its stack's pages
// are touched), each in all and per process. Two figures per part: bytes malloc holds (glibc's
// mallinfo2: in use plus mapped blocks, so an actor's stack taken from malloc counts in full)
// and resident memory (/proc/self/statm, only the pages touched). docs/benchmarks.md has them
// at 10,000 and 100,000 processes. Off, every call returns at once.
#pragma once

#include <cstddef>
#include <string>

namespace tsunagi::sim::simgrid {

class MemoryParts {
 public:
  MemoryParts();  // reads TSUNAGI_SIMGRID_MEMORY; takes the first reading

  bool on() const { return on_; }
  // What was made since the last mark, in all and per one of `count` (processes or hosts).
  void mark(const std::string& part, std::size_t count);
  // Marks `part` at the first time SimGrid's clock advances (all actors ran at time 0).
  void mark_at_first_advance(const std::string& part, std::size_t count);
  // The run's peak resident set, from getrusage, per one of `count`.
  void peak(std::size_t count) const;

 private:
  struct Reading {
    double malloc_bytes = 0;
    double resident_bytes = 0;
  };
  static Reading read();

  bool on_ = false;
  Reading last_;
};

}  // namespace tsunagi::sim::simgrid
