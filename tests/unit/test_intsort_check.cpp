// The integer sort's pure helpers: balanced ranges and the global verification, which must
// catch lost keys, duplicated keys, out-of-order ranks and missing summaries.
#include <catch2/catch.hpp>

#include "workload/intsort_check.hpp"

using namespace tsunagi;

namespace {

Bytes key_message(std::vector<std::uint32_t> keys) {
  Bytes b;
  auto put = [&](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  put(0);
  put(static_cast<std::uint32_t>(keys.size()));
  for (auto k : keys) put(k);
  return b;
}

std::vector<SortSummary> two_ranks(std::vector<std::uint32_t> out0, std::vector<std::uint32_t> out1,
                                   std::vector<std::uint32_t> in0, std::vector<std::uint32_t> in1) {
  return {summarize_output({{0, key_message(out0)}}, in0),
          summarize_output({{1, key_message(out1)}}, in1)};
}

}  // namespace

TEST_CASE("balanced bucket ranges split the keys evenly and cover every bucket", "[intsort]") {
  std::vector<std::uint64_t> counts{10, 10, 10, 10, 10, 10, 10, 10};
  auto first = balanced_bucket_ranges(counts, 4);
  CHECK(first == std::vector<std::uint32_t>{0, 2, 4, 6, 8});
  auto skewed = balanced_bucket_ranges({0, 0, 100, 0, 0, 0}, 3);
  CHECK(skewed.front() == 0);
  CHECK(skewed.back() == 6);
  CHECK(std::is_sorted(skewed.begin(), skewed.end()));
  auto more_ranks = balanced_bucket_ranges({5, 5}, 5);
  CHECK(more_ranks.size() == 6);
  CHECK(std::is_sorted(more_ranks.begin(), more_ranks.end()));
}

TEST_CASE("a correct distributed sort verifies", "[intsort]") {
  auto s = two_ranks({3, 1, 2}, {9, 7}, {9, 1, 7}, {2, 3});
  auto v = verify_sort(s, 5);
  CHECK(v.ok);
  CHECK(v.reason == "ok");
  CHECK(v.largest_share == Approx(0.6));
}

TEST_CASE("verification catches each kind of wrong result", "[intsort]") {
  CHECK_THAT(verify_sort(two_ranks({1, 2}, {9, 7}, {9, 1, 7}, {2, 3}), 5).reason,
             Catch::Contains("lost"));
  CHECK_THAT(verify_sort(two_ranks({1, 2, 3, 3}, {9, 7}, {9, 1, 7}, {2, 3}), 5).reason,
             Catch::Contains("lost or duplicated"));
  CHECK_THAT(verify_sort(two_ranks({1, 2, 4}, {9, 7}, {9, 1, 7}, {2, 3}), 5).reason,
             Catch::Contains("permutation"));
  CHECK_THAT(verify_sort(two_ranks({1, 2, 9}, {3, 7}, {9, 1, 7}, {2, 3}), 5).reason,
             Catch::Contains("below"));
  auto missing = two_ranks({1}, {2}, {1}, {2});
  missing[1].present = false;
  CHECK_THAT(verify_sort(missing, 2).reason, Catch::Contains("no summary"));
  CHECK_FALSE(verify_sort(two_ranks({1}, {2}, {1}, {2}), 3).ok);
}

TEST_CASE("sort summaries survive the wire", "[intsort]") {
  auto s = summarize_output({{0, key_message({5, 4, 6})}}, {4, 5, 6});
  auto back = read_summary(write_summary(s));
  CHECK(back.present);
  CHECK(back.count == 3);
  CHECK(back.min == 4);
  CHECK(back.max == 6);
  CHECK(back.output_hash == s.output_hash);
  Bytes truncated = write_summary(s);
  truncated.pop_back();
  CHECK_FALSE(read_summary(truncated).present);
}
