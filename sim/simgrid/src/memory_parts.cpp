// Memory by part of a SimGrid run (memory_parts.hpp).
#include "memory_parts.hpp"

#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <simgrid/s4u/Engine.hpp>

namespace tsunagi::sim::simgrid {
namespace {

void print(const std::string& part, double malloc_bytes, double resident_bytes, std::size_t count) {
  const double n = count == 0 ? 1.0 : static_cast<double>(count);
  std::fprintf(stderr,
               "simgrid memory: %-28s malloc %+10.1f MB (%+9.0f B each of %zu), resident "
               "%+10.1f MB (%+9.0f B each)\n",
               part.c_str(), malloc_bytes / 1e6, malloc_bytes / n, count, resident_bytes / 1e6,
               resident_bytes / n);
}

}  // namespace

MemoryParts::MemoryParts() : on_(std::getenv("TSUNAGI_SIMGRID_MEMORY") != nullptr) {
  if (on_) last_ = read();
}

MemoryParts::Reading MemoryParts::read() {
  Reading reading;
  const struct mallinfo2 info = mallinfo2();
  reading.malloc_bytes = static_cast<double>(info.uordblks + info.hblkhd);
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  reading.resident_bytes =
      static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
  return reading;
}

void MemoryParts::mark(const std::string& part, std::size_t count) {
  if (!on_) return;
  const Reading now = read();
  print(part, now.malloc_bytes - last_.malloc_bytes, now.resident_bytes - last_.resident_bytes,
        count);
  last_ = now;
}

void MemoryParts::mark_at_first_advance(const std::string& part, std::size_t count) {
  if (!on_) return;
  // The signal stays connected for the run; after the first advance it only tests a flag.
  ::simgrid::s4u::Engine::on_time_advance_cb([this, part, count, done = false](double) mutable {
    if (done) return;
    done = true;
    mark(part, count);
  });
}

void MemoryParts::peak(std::size_t count) const {
  if (!on_) return;
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double peak = static_cast<double>(usage.ru_maxrss) * 1024.0;
  std::fprintf(stderr, "simgrid memory: peak resident %.1f MB (%.0f B per process of %zu)\n",
               peak / 1e6, peak / static_cast<double>(count == 0 ? 1 : count), count);
}

}  // namespace tsunagi::sim::simgrid
