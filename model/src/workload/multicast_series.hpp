// The master's side of the multicast workload: which multicasts it runs, in which order, and
// what it reports about them (per algorithm, size and group size: the paper's trimmed mean).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/multicast/pieces.hpp"

namespace tsunagi::multicast {

struct Planned {
  std::uint64_t id = 0;  // 1, 2, ... in series order
  Algorithm requested = Algorithm::Auto;
  std::uint64_t bytes = 0;
  int group_size = 0;
  int repeat = 0;
  std::vector<Rank> members;  // sorted
};

// The series: algorithms x sizes x group sizes x repeats. Workers are all ranks but `master`.
// Throws std::invalid_argument with the reason when it cannot be run (a group larger than the
// workers, an unknown algorithm or group rule).
std::vector<Planned> plan_series(const MulticastConfig& config, int processes, Rank master,
                                 std::uint64_t seed);

// The master's rank for `config` in a run of `processes` ranks.
Rank master_rank(const MulticastConfig& config, int processes);

struct Outcome {
  bool done = false;
  Done result;          // valid when done
  std::string failure;  // why not, or why it does not count as verified
};

// Mean of `values` after dropping floor(trim * n) of the smallest and of the largest.
double trimmed_mean(std::vector<double> values, double trim);

// The report of the whole series: one row per (requested algorithm, bytes, group size).
nlohmann::json summarise(const std::vector<Planned>& series, const std::vector<Outcome>& outcomes,
                         double trim);

}  // namespace tsunagi::multicast
