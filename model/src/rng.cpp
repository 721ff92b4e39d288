// Seeded, portable random numbers for the protocol core (see rng.hpp for why not <random>).
#include "tsunagi/model/rng.hpp"

namespace tsunagi {

namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ULL;  // SplitMix64 increment (2^64 / phi)

// SplitMix64's output function: a bijective avalanche mix of 64 bits.
std::uint64_t splitmix_finalize(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

}  // namespace

std::uint64_t splitmix64_next(std::uint64_t& state) {
  state += kGolden;
  return splitmix_finalize(state);
}

std::uint64_t mix64(std::uint64_t a, std::uint64_t b) {
  // Hash `a` first so that nearby values of `a` land far apart, then fold `b` in and mix again;
  // the two finalisations make every output bit depend on every input bit of both arguments.
  return splitmix_finalize(splitmix_finalize(a + kGolden) ^ b);
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  // A fixed domain tag keeps derived seeds apart from other mix64(seed, x) uses of the same seed
  // (the random plan hashes mix64(seed, rank) too).
  constexpr std::uint64_t kStreamDomain = 0x53545245414D5331ULL;  // "STREAMS1"
  return mix64(seed ^ kStreamDomain, stream);
}

double bits_to_unit(std::uint64_t bits) {
  return static_cast<double>(bits >> 11) * 0x1.0p-53;
}

Rng::Rng(std::uint64_t seed) {
  // SplitMix64 never yields four zero words in a row (it is a bijection of its counter), so the
  // xoshiro state can never be the all-zero state it cannot leave.
  std::uint64_t state = seed;
  for (auto& word : s_) word = splitmix64_next(state);
}

std::uint64_t Rng::next() {
  // xoshiro256** reference algorithm, word for word.
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::uniform(std::uint64_t bound) {
  if (bound <= 1) return 0;
  // Values below `threshold` = 2^64 mod bound would make the low residues more likely; rejecting
  // them leaves a range that is an exact multiple of bound. At most half of the draws are
  // rejected, for bounds just above 2^63; for small bounds almost none.
  const std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const std::uint64_t r = next();
    if (r >= threshold) return r % bound;
  }
}

double Rng::uniform01() {
  return bits_to_unit(next());
}

}  // namespace tsunagi
