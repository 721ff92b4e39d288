#include "workload/intsort_check.hpp"

#include <algorithm>

#include "tsunagi/model/codec.hpp"
#include "tsunagi/model/rng.hpp"

namespace tsunagi {
namespace {

// A multiset hash: the sum of a strong per-key hash, so order does not matter.
std::uint64_t key_hash(std::uint32_t key) {
  return mix64(0x6b657973, key);
}

}  // namespace

std::vector<std::uint32_t> balanced_bucket_ranges(const std::vector<std::uint64_t>& counts, int p) {
  const auto buckets = static_cast<std::uint32_t>(counts.size());
  std::uint64_t total = 0;
  for (auto c : counts) total += c;
  std::vector<std::uint32_t> first(static_cast<std::size_t>(p) + 1, buckets);
  first[0] = 0;
  std::uint64_t cumulative = 0;
  std::uint32_t b = 0;
  for (int d = 1; d < p; ++d) {
    // Rank d-1 takes buckets until the running count reaches its share of the keys.
    std::uint64_t target = total * static_cast<std::uint64_t>(d) / static_cast<std::uint64_t>(p);
    while (b < buckets && cumulative + counts[b] <= target) cumulative += counts[b++];
    first[static_cast<std::size_t>(d)] = b;
  }
  return first;
}

SortSummary summarize_output(const std::vector<std::pair<Rank, Bytes>>& key_messages,
                             const std::vector<std::uint32_t>& input_keys) {
  std::vector<std::uint32_t> held;
  for (const auto& [src, body] : key_messages) {
    wire::Reader r(body);
    r.u32();
    std::uint32_t n = r.u32();
    for (std::uint32_t i = 0; i < n && r.ok(); ++i) held.push_back(r.u32());
  }
  std::sort(held.begin(), held.end());
  SortSummary s;
  s.present = true;
  s.count = held.size();
  s.locally_sorted = std::is_sorted(held.begin(), held.end());
  if (!held.empty()) {
    s.min = held.front();
    s.max = held.back();
  }
  for (auto k : held) s.output_hash += key_hash(k);
  for (auto k : input_keys) s.input_hash += key_hash(k);
  s.input_count = input_keys.size();
  return s;
}

Bytes write_summary(const SortSummary& s) {
  wire::Writer w;
  w.u32(0xFFFFFFFF);  // not an iteration: keeps the "iteration first" layout of all messages
  w.u64(s.count);
  w.u32(s.min);
  w.u32(s.max);
  w.u64(s.output_hash);
  w.u64(s.input_hash);
  w.u64(s.input_count);
  w.u8(s.locally_sorted ? 1 : 0);
  return w.take();
}

SortSummary read_summary(const Bytes& body) {
  wire::Reader r(body);
  r.u32();
  SortSummary s;
  s.count = r.u64();
  s.min = r.u32();
  s.max = r.u32();
  s.output_hash = r.u64();
  s.input_hash = r.u64();
  s.input_count = r.u64();
  s.locally_sorted = r.u8() == 1;
  s.present = r.finish("sort summary");
  return s;
}

SortVerdict verify_sort(const std::vector<SortSummary>& summaries, std::uint64_t total_keys) {
  SortVerdict v;
  std::uint64_t in_count = 0, out_count = 0, in_hash = 0, out_hash = 0, largest = 0;
  bool have_prev = false;
  std::uint32_t prev_max = 0;
  for (std::size_t r = 0; r < summaries.size(); ++r) {
    const auto& s = summaries[r];
    if (!s.present) return {false, "rank " + std::to_string(r) + " sent no summary", 0};
    if (!s.locally_sorted) return {false, "rank " + std::to_string(r) + " not sorted", 0};
    if (s.count > 0) {
      // Globally sorted: every rank's smallest key is at least the previous rank's largest.
      if (have_prev && s.min < prev_max) {
        return {
            false,
            "rank " + std::to_string(r) + " holds keys below rank " + std::to_string(r - 1) + "'s",
            0};
      }
      have_prev = true;
      prev_max = s.max;
    }
    in_count += s.input_count;
    out_count += s.count;
    in_hash += s.input_hash;
    out_hash += s.output_hash;
    largest = std::max(largest, s.count);
  }
  if (in_count != total_keys) return {false, "generated key count differs from total_keys", 0};
  if (out_count != in_count) return {false, "keys lost or duplicated in the exchange", 0};
  if (out_hash != in_hash) return {false, "output is not a permutation of the input", 0};
  v.ok = true;
  v.reason = "ok";
  v.largest_share = total_keys ? static_cast<double>(largest) / static_cast<double>(total_keys) : 0;
  return v;
}

}  // namespace tsunagi
