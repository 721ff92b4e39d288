// The core's seeded generator: pinned values (portability), determinism, bounds, uniformity.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "tsunagi/model/rng.hpp"

using tsunagi::Rng;

namespace {

// Pearson chi-square statistic of `counts` against a uniform expectation.
double chi_square(const std::vector<int>& counts, int total) {
  const double expected = static_cast<double>(total) / static_cast<double>(counts.size());
  double chi = 0;
  for (int c : counts) {
    const double diff = c - expected;
    chi += diff * diff / expected;
  }
  return chi;
}

}  // namespace

TEST_CASE("splitmix64 and xoshiro256** give the reference values", "[rng]") {
  // Reference values computed by an independent Python implementation of the published
  // algorithms; if these change, every seeded trace in the project changes.
  std::uint64_t state = 0;
  CHECK(tsunagi::splitmix64_next(state) == 0xE220A8397B1DCDAFULL);

  Rng zero(0);
  CHECK(zero.next() == 0x99EC5F36CB75F2B4ULL);
  CHECK(zero.next() == 0xBF6E1F784956452AULL);
  CHECK(zero.next() == 0x1A5F849D4933E6E0ULL);

  Rng answer(42);
  CHECK(answer.next() == 0x15780B2E0C2EC716ULL);
  CHECK(answer.next() == 0x6104D9866D113A7EULL);
  CHECK(answer.next() == 0xAE17533239E499A1ULL);

  CHECK(tsunagi::mix64(1, 2) == 0x081A5C1377856B73ULL);
  CHECK(tsunagi::mix64(2, 1) == 0xF2826F98653E9E57ULL);
}

TEST_CASE("same seed, same numbers, different seeds, different numbers", "[rng]") {
  Rng a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t x = a.next();
    REQUIRE(x == b.next());
    differs = differs || x != c.next();
  }
  CHECK(differs);

  Rng d(7), e(7);
  for (int i = 0; i < 1000; ++i) {
    REQUIRE(d.uniform(1000) == e.uniform(1000));
    REQUIRE(d.uniform01() == e.uniform01());
  }
}

TEST_CASE("uniform stays inside its bound", "[rng]") {
  Rng rng(123);
  const std::array<std::uint64_t, 7> bounds = {2, 3, 7, 10, 1000, (1ULL << 63) + 1, ~0ULL};
  for (std::uint64_t bound : bounds) {
    for (int i = 0; i < 2000; ++i) REQUIRE(rng.uniform(bound) < bound);
  }
  // An empty or one-value range has only the harmless answer 0.
  CHECK(rng.uniform(0) == 0);
  CHECK(rng.uniform(1) == 0);
  for (int i = 0; i < 10000; ++i) {
    const double u = rng.uniform01();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
  }
  CHECK(tsunagi::bits_to_unit(0) == 0.0);
  CHECK(tsunagi::bits_to_unit(~0ULL) < 1.0);
}

TEST_CASE("uniform and uniform01 are roughly uniform", "[rng]") {
  // 10 buckets = 9 degrees of freedom; the 99.99th percentile of chi-square(9) is about 33.7,
  // so 40 fails only for a broken generator, never by bad luck of a fixed seed.
  constexpr int kSamples = 100000;
  Rng rng(2024);
  std::vector<int> ints(10, 0), reals(10, 0);
  for (int i = 0; i < kSamples; ++i) {
    ++ints[static_cast<std::size_t>(rng.uniform(10))];
    ++reals[static_cast<std::size_t>(rng.uniform01() * 10.0)];
  }
  CHECK(chi_square(ints, kSamples) < 40.0);
  CHECK(chi_square(reals, kSamples) < 40.0);

  // A bound just above 2^63 is where a modulo without rejection would be most biased: values
  // below 2^63 would come up twice as often. With rejection the halves are even.
  const std::uint64_t big = (1ULL << 63) + (1ULL << 62);
  int low_half = 0;
  for (int i = 0; i < 20000; ++i) low_half += rng.uniform(big) < big / 2 ? 1 : 0;
  CHECK(low_half > 9400);
  CHECK(low_half < 10600);
}

TEST_CASE("mix64 and derive_seed spread nearby inputs apart", "[rng]") {
  std::set<std::uint64_t> seen;
  for (std::uint64_t a = 0; a < 64; ++a) {
    for (std::uint64_t b = 0; b < 64; ++b) seen.insert(tsunagi::mix64(a, b));
  }
  CHECK(seen.size() == 64u * 64u);  // no collisions on a small grid
  CHECK(tsunagi::mix64(3, 5) == tsunagi::mix64(3, 5));
  CHECK(tsunagi::mix64(3, 5) != tsunagi::mix64(5, 3));

  // Low bits of consecutive counters must look independent: about half of them set.
  int ones = 0;
  for (std::uint64_t i = 0; i < 10000; ++i) ones += static_cast<int>(tsunagi::mix64(99, i) & 1);
  CHECK(ones > 4700);
  CHECK(ones < 5300);

  CHECK(tsunagi::derive_seed(1, 0) != tsunagi::derive_seed(1, 1));
  CHECK(tsunagi::derive_seed(1, 0) != tsunagi::derive_seed(2, 0));
  CHECK(tsunagi::derive_seed(1, 0) != tsunagi::mix64(1, 0));
  CHECK(tsunagi::derive_seed(9, 4) == tsunagi::derive_seed(9, 4));
}
