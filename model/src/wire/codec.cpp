#include "tsunagi/model/codec.hpp"
#include <climits>
#include <optional>
#include <string>
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

namespace {

// The (first, length) pairs Writer::i32_runs and i32_repeats write: a value joins the last pair
// when `extends(first, length, value)` says so, else it starts a new one.
template <class Extends>
std::vector<std::pair<std::int32_t, std::uint32_t>> pairs_of(const std::vector<std::int32_t>& list,
                                                             Extends extends) {
  std::vector<std::pair<std::int32_t, std::uint32_t>> pairs;
  for (std::int32_t v : list) {
    if (!pairs.empty() && extends(pairs.back().first, pairs.back().second, v)) {
      ++pairs.back().second;
    } else {
      pairs.emplace_back(v, 1);
    }
  }
  return pairs;
}

}  // namespace

void Writer::i32_pairs(const std::vector<std::pair<std::int32_t, std::uint32_t>>& pairs) {
  u32(static_cast<std::uint32_t>(pairs.size()));
  for (const auto& [first, length] : pairs) {
    i32(first);
    u32(length);
  }
}

void Writer::i32_runs(const std::vector<std::int32_t>& list) {
  i32_pairs(pairs_of(list, [](std::int32_t start, std::uint32_t length, std::int32_t v) {
    return start != INT32_MIN && static_cast<std::int64_t>(start) + length == v;
  }));
}

void Writer::i32_repeats(const std::vector<std::int32_t>& list) {
  i32_pairs(
      pairs_of(list, [](std::int32_t value, std::uint32_t, std::int32_t v) { return value == v; }));
}

void Writer::varint(std::uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<std::uint8_t>(v));
}

void Writer::u64_deltas(const std::vector<std::uint64_t>& values) {
  std::uint64_t previous = 0;
  for (std::uint64_t v : values) {
    // Zigzag over the wrapped difference: small steps either way give small codes, and any
    // pair of 64-bit values round-trips (the reader wraps back the same way).
    const std::uint64_t diff = v - previous;
    const bool negative = (diff >> 63) != 0;
    varint(negative ? ((~diff) << 1) | 1 : diff << 1);
    previous = v;
  }
}

void Writer::front_coded(const std::vector<std::string>& strings) {
  const std::string* previous = nullptr;
  for (const std::string& s : strings) {
    std::size_t shared = 0;
    if (previous != nullptr)
      while (shared < s.size() && shared < previous->size() && s[shared] == (*previous)[shared])
        ++shared;
    varint(shared);
    varint(s.size() - shared);
    out_.insert(out_.end(), s.begin() + static_cast<std::ptrdiff_t>(shared), s.end());
    previous = &s;
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

namespace {

// Reads what Writer::i32_runs or i32_repeats wrote: a count of (first, length) pairs, each
// expanded by `expand(first, k)` for k < length; at most `max_count` values in all. `what`
// names the pairs in errors ("runs", "repeats").
template <class Expand>
std::vector<std::int32_t> read_pairs(Reader& r, std::size_t max_count, const char* what,
                                     Expand expand) {
  const std::uint32_t pairs = r.u32();
  if (!r.ok()) return {};
  if (static_cast<std::size_t>(pairs) * 8 > r.remaining()) {
    r.fail("list of " + std::to_string(pairs) + " " + what + " does not fit (" +
           std::to_string(r.remaining()) + " bytes left)");
    return {};
  }
  std::vector<std::int32_t> list;
  for (std::uint32_t i = 0; r.ok() && i < pairs; ++i) {
    const std::int32_t first = r.i32();
    const std::uint32_t length = r.u32();
    if (!r.ok()) break;
    // Check the total before growing the list, so a garbage length allocates nothing.
    if (length == 0 || length > max_count - list.size()) {
      r.fail(std::string(what) + ": " + std::to_string(length) + " values break the limit of " +
             std::to_string(max_count));
    } else if (auto overflow = expand(first, length, list)) {
      r.fail(*overflow);
    }
  }
  return r.ok() ? list : std::vector<std::int32_t>{};
}

}  // namespace

std::vector<std::int32_t> Reader::i32_runs(std::size_t max_count) {
  return read_pairs(*this, max_count, "runs",
                    [](std::int32_t start, std::uint32_t length,
                       std::vector<std::int32_t>& list) -> std::optional<std::string> {
                      if (static_cast<std::int64_t>(start) + length - 1 > INT32_MAX)
                        return "run from " + std::to_string(start) + " of " +
                               std::to_string(length) + " values overflows";
                      for (std::uint32_t k = 0; k < length; ++k)
                        list.push_back(start + static_cast<std::int32_t>(k));
                      return std::nullopt;
                    });
}

std::vector<std::int32_t> Reader::i32_repeats(std::size_t max_count) {
  return read_pairs(*this, max_count, "repeats",
                    [](std::int32_t value, std::uint32_t length,
                       std::vector<std::int32_t>& list) -> std::optional<std::string> {
                      list.insert(list.end(), length, value);
                      return std::nullopt;
                    });
}

std::uint64_t Reader::varint() {
  std::uint64_t v = 0;
  for (int shift = 0; ok_; shift += 7) {
    const std::uint8_t byte = u8();
    if (!ok_) break;
    // The tenth byte may carry only the top bit of a 64-bit value.
    if (shift == 63 && byte > 1) {
      fail("varint longer than 64 bits");
      break;
    }
    // Strict: a last byte of 0 after others is a longer form of a shorter code.
    if (shift > 0 && byte == 0) {
      fail("varint not in its shortest form");
      break;
    }
    v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return v;
  }
  return 0;
}

std::vector<std::uint64_t> Reader::u64_deltas(std::size_t count) {
  if (!ok_) return {};
  if (count > remaining()) {
    fail(std::to_string(count) + " delta-coded values cannot fit in " +
         std::to_string(remaining()) + " bytes");
    return {};
  }
  std::vector<std::uint64_t> values;
  values.reserve(count);
  std::uint64_t previous = 0;
  for (std::size_t i = 0; ok_ && i < count; ++i) {
    const std::uint64_t code = varint();
    const std::uint64_t diff = (code & 1) != 0 ? ~(code >> 1) : code >> 1;
    previous += diff;
    values.push_back(previous);
  }
  return ok_ ? values : std::vector<std::uint64_t>{};
}

std::vector<std::string> Reader::front_coded(std::size_t count, std::size_t max_len) {
  if (!ok_) return {};
  if (count > remaining() / 2) {
    fail(std::to_string(count) + " front-coded strings cannot fit in " +
         std::to_string(remaining()) + " bytes");
    return {};
  }
  std::vector<std::string> strings;
  strings.reserve(count);
  for (std::size_t i = 0; ok_ && i < count; ++i) {
    const std::uint64_t shared = varint();
    const std::uint64_t rest = varint();
    if (!ok_) break;
    const std::size_t before = strings.empty() ? 0 : strings.back().size();
    if (shared > before) {
      fail("string " + std::to_string(i) + " shares " + std::to_string(shared) +
           " bytes with one of " + std::to_string(before));
    } else if (rest > max_len - shared) {
      fail("string " + std::to_string(i) + " of " + std::to_string(shared) + " + " +
           std::to_string(rest) + " bytes exceeds limit " + std::to_string(max_len));
    } else if (rest > remaining()) {
      fail("truncated payload: string " + std::to_string(i) + " needs " + std::to_string(rest) +
           " bytes, " + std::to_string(remaining()) + " left");
    } else {
      std::string s = strings.empty() ? std::string{} : strings.back().substr(0, shared);
      s.append(in_.begin() + static_cast<std::ptrdiff_t>(pos_),
               in_.begin() + static_cast<std::ptrdiff_t>(pos_ + rest));
      pos_ += rest;
      strings.push_back(std::move(s));
    }
  }
  return ok_ ? strings : std::vector<std::string>{};
}

bool Reader::finish(const char* what) {
  if (ok_ && remaining() != 0) {
    fail(std::string(what) + ": " + std::to_string(remaining()) + " trailing bytes");
  }
  return ok_;
}

}  // namespace tsunagi::wire
