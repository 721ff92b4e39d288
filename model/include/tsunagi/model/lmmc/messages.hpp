// What travels on an LMMC serial link (docs/lmmc.md, "Messages"). The writing end sends remote
// writes and remote-paging requests; the reading end answers reads with credits on the reverse
// link, which is how the writer learns that a frame has room again.
//
// Layout, little-endian, one message per packet, lengths exact:
//   PagingRequest  u8 1, u32 seq, u16 frame, u32 page_in            (11 bytes)
//   RemoteWrite    u8 2, u32 port, u16 frame, u32 length, data      (11 + length bytes)
//   Credit         u8 3, u32 port, u32 bytes                        (9 bytes)
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "tsunagi/model/lmmc/types.hpp"

namespace tsunagi::lmmc {

// Paper 003 §2.3, sender step 4: the port to page in and the frame it goes to. The receiver
// finds the port to page out in its own frame table (receiver step 2), so the request does not
// name it. page_in == kNoPort only pages the frame out (an explicit page-out). `seq` numbers the
// requests of one link end from 0, so a replayed or reordered request is out of phase.
struct PagingRequest {
  std::uint32_t seq = 0;
  FrameIndex frame = 0;
  PortId page_in = kNoPort;
  bool operator==(const PagingRequest&) const = default;
};

// An asynchronous remote memory write into `frame`, which holds `port` (the receiver checks).
struct RemoteWrite {
  PortId port = kNoPort;
  FrameIndex frame = 0;
  Bytes data;
  bool operator==(const RemoteWrite&) const = default;
};

// The reader consumed `bytes` of `port`: the writer may put that many more.
struct Credit {
  PortId port = kNoPort;
  std::uint32_t bytes = 0;
  bool operator==(const Credit&) const = default;
};

using Message = std::variant<PagingRequest, RemoteWrite, Credit>;

Bytes encode(const Message& message);

// Reads one message of a link end with `config.frames` frames and `config.page_size` pages.
// Rejected with a reason: empty, unknown type, wrong length for the type, a frame out of range,
// port id 0 where a port is needed, a write longer than a page, a zero-byte write or credit.
// Whether the port is known and the message fits the phase is the receiving end's check.
std::optional<Message> decode(const Bytes& bytes, const LinkConfig& config, std::string& error);

}  // namespace tsunagi::lmmc
