// Little-endian writer and bounds-checked reader for frame payloads. The reader never reads
// past the end: the first failure makes it sticky-failed with a reason.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tsunagi::wire {

class Writer {
 public:
  void u8(std::uint8_t v) { out_.push_back(v); }
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void i32(std::int32_t v) { u32(static_cast<std::uint32_t>(v)); }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void str(const std::string& s);
  void i32_list(const std::vector<std::int32_t>& list);
  // The same list as runs of consecutive values (count, then start + length per run): rank
  // lists of block-placed groups shrink from 4 bytes per rank to 8 bytes per group.
  void i32_runs(const std::vector<std::int32_t>& list);
  // The same list as runs of equal values (count, then value + length per run): a leader's
  // next hop for each rank beneath repeats one child for a whole subtree.
  void i32_repeats(const std::vector<std::int32_t>& list);
  // LEB128: 7 bits per byte, low bits first; 1 byte below 128, at most 10.
  void varint(std::uint64_t v);
  // Each value as the zigzag-coded difference from the one before, in varints (no count: the
  // reader knows it). RTTs of one leader's row differ little: mostly 1-3 bytes each, not 8.
  void u64_deltas(const std::vector<std::uint64_t>& values);
  // Strings front-coded (no count: the reader knows it): per string, the length it shares
  // with the one before and the rest, in varints. Endpoints of consecutive ranks differ in a
  // few characters ("s.3.17-h08:0", "s.3.17-h09:0"): about 5 bytes each instead of 18.
  void front_coded(const std::vector<std::string>& strings);
  std::vector<std::uint8_t> take() { return std::move(out_); }
  std::vector<std::uint8_t>& buffer() { return out_; }

 private:
  void put(std::uint64_t v, int n);
  void i32_pairs(const std::vector<std::pair<std::int32_t, std::uint32_t>>& pairs);
  std::vector<std::uint8_t> out_;
};

class Reader {
 public:
  explicit Reader(const std::vector<std::uint8_t>& in) : in_(in) {}
  std::uint8_t u8();
  std::uint16_t u16() { return static_cast<std::uint16_t>(get(2, "u16")); }
  std::uint32_t u32() { return static_cast<std::uint32_t>(get(4, "u32")); }
  std::uint64_t u64() { return get(8, "u64"); }
  std::int32_t i32() { return static_cast<std::int32_t>(u32()); }
  std::int64_t i64() { return static_cast<std::int64_t>(u64()); }
  std::string str(std::size_t max_len = 4096);
  // A count-prefixed list; `max_count` guards against absurd counts from garbage.
  std::vector<std::int32_t> i32_list(std::size_t max_count);
  // Reads what Writer::i32_runs wrote; at most `max_count` values in all.
  std::vector<std::int32_t> i32_runs(std::size_t max_count);
  // Reads what Writer::i32_repeats wrote; at most `max_count` values in all.
  std::vector<std::int32_t> i32_repeats(std::size_t max_count);
  std::uint64_t varint();
  // Reads `count` values Writer::u64_deltas wrote; fails before allocating when fewer than
  // `count` bytes are left (every value takes at least one).
  std::vector<std::uint64_t> u64_deltas(std::size_t count);
  // Reads `count` strings Writer::front_coded wrote, each at most `max_len` bytes; fails
  // before allocating when fewer than 2 bytes per string are left.
  std::vector<std::string> front_coded(std::size_t count, std::size_t max_len);
  // Number of further items of `item_size` bytes the rest of the payload can hold.
  std::size_t remaining() const { return in_.size() - pos_; }
  bool ok() const { return ok_; }
  const std::string& error() const { return error_; }
  void fail(const std::string& why);
  // Fails when bytes are left over: a payload must be consumed exactly.
  bool finish(const char* what);

 private:
  std::uint64_t get(int n, const char* what);
  const std::vector<std::uint8_t>& in_;
  std::size_t pos_ = 0;
  bool ok_ = true;
  std::string error_;
};

}  // namespace tsunagi::wire
