// Pure helpers of the integer sort: balanced bucket ranges, per-rank output summaries, and the
// global check that the output is sorted and a permutation of the input.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tsunagi/model/io.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

// first[d] is the first bucket of rank d; first[p] = number of buckets. Greedy on the
// cumulative count so every rank gets close to total/p keys.
std::vector<std::uint32_t> balanced_bucket_ranges(const std::vector<std::uint64_t>& counts, int p);

struct SortSummary {
  bool present = false;
  std::uint64_t count = 0;  // keys this rank holds after the exchange
  std::uint32_t min = 0, max = 0;
  std::uint64_t output_hash = 0;  // order-independent hash of the keys held
  std::uint64_t input_hash = 0;   // same hash of the keys this rank generated
  std::uint64_t input_count = 0;
  bool locally_sorted = false;
};

// Sorts the keys received in the last iteration (key messages: u32 iter, u32 n, n × u32).
SortSummary summarize_output(const std::vector<std::pair<Rank, Bytes>>& key_messages,
                             const std::vector<std::uint32_t>& input_keys);
Bytes write_summary(const SortSummary& s);
SortSummary read_summary(const Bytes& body);

struct SortVerdict {
  bool ok = false;
  std::string reason;        // "ok" or what failed first
  double largest_share = 0;  // largest rank's share of all keys (load balance)
};
SortVerdict verify_sort(const std::vector<SortSummary>& summaries, std::uint64_t total_keys);

}  // namespace tsunagi
