// Little-endian writer and bounds-checked reader for frame payloads. The reader never reads
// past the end: the first failure makes it sticky-failed with a reason.
#pragma once

#include <cstdint>
#include <string>
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
  std::vector<std::uint8_t> take() { return std::move(out_); }
  std::vector<std::uint8_t>& buffer() { return out_; }

 private:
  void put(std::uint64_t v, int n);
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
