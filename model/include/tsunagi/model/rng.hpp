// The core's own seeded random numbers. docs/architecture.md: randomness comes from a seeded
// generator the core owns, and the same seed must give byte-identical traces on every platform and
// backend. <random> is not used because its distributions are implementation-defined (libstdc++ and
// libc++ give different numbers for the same engine), and it is banned from model/ anyway.
//
// Generator: xoshiro256** (Blackman & Vigna, 2018) seeded through SplitMix64, the seeding its
// authors recommend. Everything is fixed-width unsigned arithmetic, so results are exact and
// identical everywhere.
#pragma once

#include <array>
#include <cstdint>

namespace tsunagi {

// One SplitMix64 step: advances `state` and returns the next output. Exposed because seeding and
// mix64 are built on it and tests pin its values.
std::uint64_t splitmix64_next(std::uint64_t& state);

// Stateless hash of two values (order matters: mix64(a, b) != mix64(b, a) in general). Used for
// counter-based randomness where a decision must be recomputable from its inputs alone, without
// shared generator state: e.g. "is pair {u, v} an edge of the random plan under seed s" is
// mix64(mix64(s, u), v), and both u and v compute the same answer independently.
std::uint64_t mix64(std::uint64_t a, std::uint64_t b);

// A seed for an independent stream (per rank, per subsystem) derived from the run's seed, so
// adding draws in one subsystem never shifts the numbers another one sees.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream);

// Maps 64 random bits to a double in [0, 1) using the top 53 bits (exactly representable, so the
// result is the same on every IEEE-754 platform).
double bits_to_unit(std::uint64_t bits);

class Rng {
 public:
  explicit Rng(std::uint64_t seed);

  // 64 uniformly random bits.
  std::uint64_t next();

  // Uniform integer in [0, bound), without modulo bias (rejection sampling). uniform(0) and
  // uniform(1) return 0: an empty range has no value to give, and 0 is the harmless answer.
  std::uint64_t uniform(std::uint64_t bound);

  // Uniform double in [0, 1).
  double uniform01();

 private:
  std::array<std::uint64_t, 4> s_;
};

}  // namespace tsunagi
