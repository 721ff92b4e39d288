#include "tsunagi/model/multicast/group_bitmap.hpp"

#include <bit>
#include <stdexcept>

namespace tsunagi::multicast {

GroupBitmap::GroupBitmap(int processes) : processes_(processes) {
  if (processes < 1 || processes > kMaxProcesses)
    throw std::invalid_argument("a group bitmap needs 1.." + std::to_string(kMaxProcesses) +
                                " processes, not " + std::to_string(processes));
  bits_.assign((static_cast<std::size_t>(processes) + 7) / 8, 0);
}

GroupBitmap GroupBitmap::of(int processes, const std::vector<Rank>& members) {
  GroupBitmap group(processes);
  for (Rank rank : members) group.add(rank);
  return group;
}

void GroupBitmap::add(Rank rank) {
  if (rank < 0 || rank >= processes_)
    throw std::invalid_argument("rank " + std::to_string(rank) + " is not one of the " +
                                std::to_string(processes_) + " processes");
  std::uint8_t& byte = bits_[static_cast<std::size_t>(rank) / 8];
  const auto bit = static_cast<std::uint8_t>(1u << (rank % 8));
  if ((byte & bit) == 0) ++count_;
  byte |= bit;
}

bool GroupBitmap::contains(Rank rank) const {
  if (rank < 0 || rank >= processes_) return false;
  return (bits_[static_cast<std::size_t>(rank) / 8] >> (rank % 8)) & 1u;
}

std::vector<Rank> GroupBitmap::members() const {
  std::vector<Rank> out;
  out.reserve(static_cast<std::size_t>(count_));
  for (std::size_t byte = 0; byte < bits_.size(); ++byte) {
    for (unsigned bits = bits_[byte]; bits != 0; bits &= bits - 1)
      out.push_back(static_cast<Rank>(byte * 8 + static_cast<std::size_t>(std::countr_zero(bits))));
  }
  return out;
}

int GroupBitmap::logical_of(Rank rank) const {
  if (!contains(rank)) return -1;
  int below = 0;
  const auto whole_bytes = static_cast<std::size_t>(rank) / 8;
  for (std::size_t byte = 0; byte < whole_bytes; ++byte) below += std::popcount(bits_[byte]);
  const unsigned partial = bits_[whole_bytes] & ((1u << (rank % 8)) - 1u);
  return below + std::popcount(partial);
}

void GroupBitmap::encode(wire::Writer& out) const {
  out.u32(static_cast<std::uint32_t>(processes_));
  for (std::uint8_t byte : bits_) out.u8(byte);
}

std::optional<GroupBitmap> GroupBitmap::decode(wire::Reader& in, int processes,
                                               std::string& error) {
  const std::uint32_t announced = in.u32();
  if (!in.ok()) {
    error = "group bitmap: " + in.error();
    return std::nullopt;
  }
  if (processes < 1 || processes > kMaxProcesses ||
      announced != static_cast<std::uint32_t>(processes)) {
    error = "group bitmap of " + std::to_string(announced) + " processes in a run of " +
            std::to_string(processes);
    return std::nullopt;
  }
  const std::size_t bytes = (static_cast<std::size_t>(processes) + 7) / 8;
  if (in.remaining() < bytes) {
    error = "group bitmap truncated: " + std::to_string(in.remaining()) + " of " +
            std::to_string(bytes) + " bytes";
    return std::nullopt;
  }
  GroupBitmap group(processes);
  for (std::size_t i = 0; i < bytes; ++i) {
    group.bits_[i] = in.u8();
    group.count_ += std::popcount(group.bits_[i]);
  }
  const int spare = static_cast<int>(bytes * 8) - processes;
  if (spare > 0 && (group.bits_.back() >> (8 - spare)) != 0) {
    error = "group bitmap sets bits beyond rank " + std::to_string(processes - 1);
    return std::nullopt;
  }
  if (group.count_ == 0) {
    error = "group bitmap names no member";
    return std::nullopt;
  }
  return group;
}

}  // namespace tsunagi::multicast
