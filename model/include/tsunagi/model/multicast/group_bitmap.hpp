// A multicast group as a bitmap of ranks (paper 002 §4.2): bit r is set when rank r is a member.
// P processes take P bits, so the group travels with every piece of the message. Members are
// numbered in bitmap order: the lowest member rank is logical 0, the root.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/codec.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi::multicast {

class GroupBitmap {
 public:
  // The most processes a bitmap may describe (a decoder allocates only P/8 bytes after it has
  // checked P against this and against the run's own size).
  static constexpr int kMaxProcesses = 1 << 20;

  GroupBitmap() = default;
  // An empty group of `processes` ranks; throws std::invalid_argument outside 1..kMaxProcesses.
  explicit GroupBitmap(int processes);
  // The group of `members` (any order, no duplicates needed); throws std::invalid_argument
  // when a rank is outside 0..processes-1.
  static GroupBitmap of(int processes, const std::vector<Rank>& members);

  void add(Rank rank);
  bool contains(Rank rank) const;
  int processes() const { return processes_; }
  int count() const { return count_; }
  // Members in rank order: index = logical number.
  std::vector<Rank> members() const;
  // Logical number of `rank` (its position among the members), -1 for a non-member.
  int logical_of(Rank rank) const;

  // u32 processes, then ceil(processes / 8) bytes, rank r at bit r % 8 of byte r / 8.
  void encode(wire::Writer& out) const;
  // Reads what encode wrote. Rejected with a reason: a different process count than the run's
  // (`processes`), a truncated bitmap, bits set beyond the last rank, an empty group.
  static std::optional<GroupBitmap> decode(wire::Reader& in, int processes, std::string& error);

  bool operator==(const GroupBitmap& other) const {
    return processes_ == other.processes_ && bits_ == other.bits_;
  }

 private:
  int processes_ = 0;
  int count_ = 0;
  std::vector<std::uint8_t> bits_;
};

}  // namespace tsunagi::multicast
