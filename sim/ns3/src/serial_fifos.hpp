// Serial links' FIFO depth in ns-3 (issue 14, scenario network.serial.fifo): each serial
// link's point-to-point devices get a byte-limited transmit queue of the link's FIFO depth
// instead of the default 1,000 packets; a full FIFO stops its device and the sending node holds
// the frame (a queue disc of its own) until there is room, as STAFF-Link's hardware retries a
// store into a full FIFO. What the queues did is counted for result.json (serial.*;
// docs/lmmc.md, "FIFO depth").
#pragma once

#include <cstdint>
#include <memory>

#include <ns3/net-device-container.h>

namespace tsunagi::sim::ns3 {

// A point-to-point frame as its device queues it: a 1,500-byte IP packet and PPP's 2-byte
// header. A queue must hold one, or nothing ever leaves (ns-3 enqueues before it transmits).
inline constexpr std::int64_t kLargestSerialFrame = 1502;

struct SerialFifos {
  std::int64_t depth_bytes = 0;      // the queues' size: the FIFO depth, at least one frame
  std::uint64_t peak_bytes = 0;      // the most bytes any one FIFO held
  std::uint64_t held_frames = 0;     // frames the sending node held until its FIFO had room
  std::int64_t longest_hold_ns = 0;  // the longest such wait
  std::uint64_t drops = 0;           // frames refused, FIFOs and holds together
};

// The queue size a FIFO of `fifo_bytes` gets (never below one frame).
std::int64_t serial_queue_bytes(std::int64_t fifo_bytes);

// Sizes both devices' queues to fifos->depth_bytes and watches them (fifos must outlive the
// simulation: the topology keeps it).
void limit_serial_queues(const ::ns3::NetDeviceContainer& devices,
                         const std::shared_ptr<SerialFifos>& fifos);

}  // namespace tsunagi::sim::ns3
