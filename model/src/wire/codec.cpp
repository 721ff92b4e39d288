#include "tsunagi/model/codec.hpp"
#include <climits>
#include <utility>

namespace tsunagi::wire {

void Writer::put(std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void Writer::str(const std::string& s) {
  u32(static_cast<std::uint32_t>(s.size()));
  out_.insert(out_.end(), s.begin(), s.end());
}

void Writer::i32_list(const std::vector<std::int32_t>& list) {
  u32(static_cast<std::uint32_t>(list.size()));
  for (std::int32_t v : list) i32(v);
}

void Writer::i32_runs(const std::vector<std::int32_t>& list) {
  std::vector<std::pair<std::int32_t, std::uint32_t>> runs;
  for (std::int32_t v : list) {
    const bool extends = !runs.empty() && runs.back().first != INT32_MIN &&
                         static_cast<std::int64_t>(runs.back().first) + runs.back().second == v;
    if (extends) {
      ++runs.back().second;
    } else {
      runs.emplace_back(v, 1);
    }
  }
  u32(static_cast<std::uint32_t>(runs.size()));
  for (const auto& [start, length] : runs) {
    i32(start);
    u32(length);
  }
}

void Reader::fail(const std::string& why) {
  if (ok_) error_ = why;
  ok_ = false;
}

std::uint64_t Reader::get(int n, const char* what) {
  if (!ok_) return 0;
  if (remaining() < static_cast<std::size_t>(n)) {
    fail(std::string("truncated payload: ") + what + " needs " + std::to_string(n) + " bytes, " +
         std::to_string(remaining()) + " left");
    return 0;
  }
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= std::uint64_t{in_[pos_ + i]} << (8 * i);
  pos_ += static_cast<std::size_t>(n);
  return v;
}

std::uint8_t Reader::u8() {
  return static_cast<std::uint8_t>(get(1, "u8"));
}

std::string Reader::str(std::size_t max_len) {
  std::uint32_t len = u32();
  if (!ok_) return {};
  if (len > max_len) {
    fail("string of " + std::to_string(len) + " bytes exceeds limit " + std::to_string(max_len));
    return {};
  }
  if (remaining() < len) {
    fail("truncated payload: string of " + std::to_string(len) + " bytes, " +
         std::to_string(remaining()) + " left");
    return {};
  }
  std::string s(in_.begin() + static_cast<std::ptrdiff_t>(pos_),
                in_.begin() + static_cast<std::ptrdiff_t>(pos_ + len));
  pos_ += len;
  return s;
}

std::vector<std::int32_t> Reader::i32_list(std::size_t max_count) {
  std::uint32_t count = u32();
  if (!ok_) return {};
  // Check against both the limit and the bytes present before allocating anything.
  if (count > max_count || static_cast<std::size_t>(count) * 4 > remaining()) {
    fail("list of " + std::to_string(count) + " items does not fit (limit " +
         std::to_string(max_count) + ", " + std::to_string(remaining()) + " bytes left)");
    return {};
  }
  std::vector<std::int32_t> list(count);
  for (auto& v : list) v = i32();
  return list;
}

std::vector<std::int32_t> Reader::i32_runs(std::size_t max_count) {
  const std::uint32_t runs = u32();
  if (!ok_) return {};
  if (static_cast<std::size_t>(runs) * 8 > remaining()) {
    fail("list of " + std::to_string(runs) + " runs does not fit (" + std::to_string(remaining()) +
         " bytes left)");
    return {};
  }
  std::vector<std::int32_t> list;
  for (std::uint32_t i = 0; ok_ && i < runs; ++i) {
    const std::int32_t start = i32();
    const std::uint32_t length = u32();
    if (!ok_) break;
    // Check the total before growing the list, so a garbage length allocates nothing.
    if (length == 0 || length > max_count - list.size()) {
      fail("run of " + std::to_string(length) + " values breaks the limit of " +
           std::to_string(max_count));
    } else if (static_cast<std::int64_t>(start) + length - 1 > INT32_MAX) {
      fail("run from " + std::to_string(start) + " of " + std::to_string(length) +
           " values overflows");
    } else {
      for (std::uint32_t k = 0; k < length; ++k)
        list.push_back(start + static_cast<std::int32_t>(k));
    }
  }
  return ok_ ? list : std::vector<std::int32_t>{};
}

bool Reader::finish(const char* what) {
  if (ok_ && remaining() != 0) {
    fail(std::string(what) + ": " + std::to_string(remaining()) + " trailing bytes");
  }
  return ok_;
}

}  // namespace tsunagi::wire
