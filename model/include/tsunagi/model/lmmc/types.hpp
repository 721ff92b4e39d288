// LMMC (paper 003, docs/lmmc.md): the vocabulary of link memory. A port is a one-way channel
// named by a positive integer; the receive buffer at the far end of a serial link is split into
// link page frames; processes map virtual link pages onto ports. Everything here is plain data;
// the costs are the paper's measurements handed back as durations, never slept.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi::lmmc {

using Bytes = std::vector<std::uint8_t>;

// Port identifier: positive, unique per network interface (paper 003 §2.2). 0 is "no port".
using PortId = std::uint32_t;
constexpr PortId kNoPort = 0;
// A process on one node (the core never learns OS process ids; the caller numbers them).
using ProcId = std::int32_t;
// A virtual link page of one process.
using VPage = std::uint32_t;
// Index of a link page frame within one link end's buffer.
using FrameIndex = std::uint16_t;

// A STAFF-Link SBus card carries 4 link ports; a node with one card has at most 4 link ends
// in each direction. The core models one direction of one link; a backend holds one per port.
constexpr int kStaffLinkPortsPerCard = 4;

// Calibration: what one operation costs, from paper 003 §4.4 (SPARCserver 5, microSPARC-II at
// 110 MHz, 4 KB pages, software-emulated MMU). The core adds them up and returns them; a backend
// turns them into compute time.
struct Costs {
  TimeNs send_routine = 17 * kNsPerUs;   // the remote-write routine on the sender, 1 byte
  TimeNs receive_write = 20 * kNsPerUs;  // link FIFO -> link memory on the receiver, 1 byte
  TimeNs first_touch = 180 * kNsPerUs;   // first use of a virtual link page (MMU/TLB set-up)
  // One remote-paging trap, charged at each end. The paper measures none; we assume it is of the
  // order of the first-touch cost, which is the same kind of work (a trap plus MMU tables).
  TimeNs paging_trap = 180 * kNsPerUs;
};

struct LinkConfig {
  static constexpr int kMaxFrames = 1024;
  static constexpr std::uint32_t kMaxPageSize = 1u << 20;
  int frames = 4;                  // link page frames of this link end (1..kMaxFrames)
  std::uint32_t page_size = 4096;  // bytes; also the most unread bytes one port may hold
  Costs costs;
};

// Why a write or read was not performed. A refused operation changed nothing; the caller may
// retry (FrameFull: after the reader has read, as STAFF-Link's hardware retries on a full FIFO).
enum class Refusal {
  NotStarted,  // the link end's initialisation routine has not run
  NotMapped,   // the process has no virtual link page there
  Empty,       // a zero-byte write or read
  TooLarge,    // more than one page in one write (a message layer splits)
  FrameFull,   // the port already holds page_size - n unread bytes: flow control
};
std::string to_string(Refusal refusal);

// Receive ends start in Initialising and only accept traffic once the initialisation routine
// (paper 003 §4.2) has allocated the buffer: anything earlier is refused as out of phase.
enum class Phase { Initialising, Running };

}  // namespace tsunagi::lmmc
