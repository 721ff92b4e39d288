#include "tsunagi/model/codec.hpp"

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

void Reader::fail(const std::string& why) {
  if (ok_) error_ = why;
  ok_ = false;
}

std::uint64_t Reader::get(int n, const char* what) {
  if (!ok_) return 0;
  if (remaining() < static_cast<std::size_t>(n)) {
    fail(std::string("truncated payload: ") + what + " needs " + std::to_string(n) +
         " bytes, " + std::to_string(remaining()) + " left");
    return 0;
  }
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= std::uint64_t{in_[pos_ + i]} << (8 * i);
  pos_ += static_cast<std::size_t>(n);
  return v;
}

std::uint8_t Reader::u8() { return static_cast<std::uint8_t>(get(1, "u8")); }

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

bool Reader::finish(const char* what) {
  if (ok_ && remaining() != 0) {
    fail(std::string(what) + ": " + std::to_string(remaining()) + " trailing bytes");
  }
  return ok_;
}

}  // namespace tsunagi::wire
