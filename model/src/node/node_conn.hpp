// What a node keeps per connection, and the counters its report carries (node.hpp).
#pragma once

#include <cstdint>

#include "tsunagi/model/messages.hpp"
#include "tsunagi/model/types.hpp"
#include "tsunagi/model/wire.hpp"
#include "wire/framed_conn.hpp"

namespace tsunagi {

struct NodeCounters {
  std::uint64_t messages_sent = 0;
  std::uint64_t messages_delivered = 0;
  std::uint64_t messages_relayed = 0;
  std::uint64_t messages_undeliverable = 0;
  std::uint64_t frames_rejected = 0;
  std::uint64_t shortcuts_opened = 0;    // opened by this node (each shortcut counted once)
  std::uint64_t shortcuts_accepted = 0;  // opened towards this node by a peer
  std::uint64_t shortcuts_evicted = 0;
  std::uint64_t rtt_probes = 0;
  // Data connections in use (static links and held shortcuts) and their peak; connections in
  // their goodbye handshake (an evicted shortcut, the losing one of two opened at once) are
  // counted apart: they carry no new data and close after one round trip.
  int open_data_connections = 0;
  int max_data_connections = 0;
  int closing_connections = 0;
  int max_closing_connections = 0;
};

// up: outgoing = connected; incoming = its hello seen.
struct NodeConn : wire::FramedConn {
  Rank peer = kNoRank;
  wire::ConnPurpose purpose = wire::ConnPurpose::Control;
  bool closing = false;            // we sent goodbye: receive only, close on the answer
  bool counted = false;            // in open_data_connections (see NodeCounters)
  std::uint64_t window_bytes = 0;  // send + receive buffers the core gave it (node_windows.cpp)
};

}  // namespace tsunagi
