// Trace-driven replay of one link direction through the real protocol core (both ends of a
// Link, every message encoded and decoded): the offline study of docs/lmmc.md counts page
// faults this way, and the tests use it to compare policies with Belady's optimum.
//
// The sequence of performed writes does not depend on the policy: flow control is decided by
// unread bytes, which follow the trace's reads and not residency. So every policy sees the same
// reference string, and `references` is the string Belady's optimum is computed on.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tsunagi/model/lmmc/policy.hpp"
#include "tsunagi/model/lmmc/types.hpp"

namespace tsunagi::lmmc {

struct TraceOp {
  enum class Kind : std::uint8_t { Write, Read };
  Kind kind = Kind::Write;
  ProcId proc = 0;  // a writer process for writes, a reader process for reads
  PortId port = kNoPort;
  std::uint32_t bytes = 0;
};

struct Trace {
  std::string workload;
  // Who maps which port, at the writing node and at the reading node; a port listed for
  // several processes is shared by them. Each process maps its ports on pages 0, 1, ...
  std::vector<std::pair<ProcId, PortId>> writers;
  std::vector<std::pair<ProcId, PortId>> readers;
  std::vector<TraceOp> ops;
  std::vector<PortId> ports() const;  // every port mapped at either end, ascending
};

struct ReplayOptions {
  LinkConfig link;
  PolicyKind policy = PolicyKind::Lru;
  // Sends posted ahead: while a write is performed, the next `lookahead` writes of the trace are
  // already posted (pending), as asynchronous sends queue descriptors before the data moves.
  int lookahead = 0;
  bool check_every_step = false;  // run Link::check_consistency after every operation
};

struct ReplayStats {
  std::uint64_t writes = 0;
  std::uint64_t faults = 0;            // writes that trapped (remote paging)
  std::uint64_t page_outs = 0;         // faults that had to free an occupied frame
  std::uint64_t bytes_paged_out = 0;   // unread bytes those page-outs copied at the reader
  std::uint64_t refusals = 0;          // writes refused for a full frame, retried after reads
  std::uint64_t reads_from_store = 0;  // reads served from a paged-out port
  std::uint64_t first_touches = 0;
  TimeNs writer_cost = 0;
  TimeNs reader_cost = 0;
  std::vector<PortId> references;  // the port of every performed write, in order
  std::string error;               // the first failure; the replay stops there
};

ReplayStats replay(const Trace& trace, const ReplayOptions& options);

}  // namespace tsunagi::lmmc
