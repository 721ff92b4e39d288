// The reading end of one direction of a serial link (paper 003 §2.3, receiver side). Its link
// page frames hold the bytes written to the resident ports; a port paged out keeps its unread
// bytes in ordinary memory (the page-out of receiver step 3) and gets them back on page-in.
//
// A receive is a local read. We model a port's page as its queue of unread bytes: a write
// appends, a read consumes from the front. The paper leaves the layout inside a page to the
// message layer above; a queue is the simplest layout that makes one-way channels work.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/lmmc/messages.hpp"
#include "tsunagi/model/lmmc/tables.hpp"

namespace tsunagi::lmmc {

struct ReadResult {
  std::optional<Refusal> refused;
  Bytes data;                   // may be shorter than asked, or empty: nothing unread
  std::vector<Bytes> messages;  // a credit for the writing end, when bytes were read
  TimeNs cost = 0;              // first touch only: the paper measured no read cost
  bool from_store = false;      // the port was paged out: served from ordinary memory
};

// What a message from the writing end did. error set: rejected, nothing changed.
struct Delivery {
  std::string error;
  TimeNs cost = 0;
  PortId paged_out = kNoPort;
  std::uint32_t bytes_saved = 0;  // unread bytes the page-out copied to ordinary memory
};

class RecvEnd {
 public:
  explicit RecvEnd(LinkConfig config);

  // The initialisation routine: allocates the receive buffer. Messages are refused before it.
  void start() { phase_ = Phase::Running; }
  Phase phase() const { return phase_; }
  std::string open_port(PortId port);
  std::string map(ProcId proc, VPage vpage, PortId port) { return tables_.map(proc, vpage, port); }

  // Receiver steps 1-7 for a paging request; the remote write otherwise.
  Delivery on_message(const Bytes& bytes);
  // The read routine: up to `max_bytes` of the port behind (proc, vpage).
  ReadResult read(ProcId proc, VPage vpage, std::uint32_t max_bytes);

  const LinkConfig& config() const { return config_; }
  const LinkTables& tables() const { return tables_; }
  std::uint32_t unread(PortId port) const;
  std::uint32_t paging_requests() const { return expected_seq_; }
  // The tables, plus: frames hold at most a page and free frames nothing; saved bytes belong
  // to open ports that are not resident.
  std::string check_consistency() const;

 private:
  Delivery page(const PagingRequest& request);
  Delivery write(const RemoteWrite& write);
  Bytes& queue_of(PortId port);

  LinkConfig config_;
  LinkTables tables_;
  std::vector<Bytes> frame_data_;  // index = frame: the resident port's unread bytes
  std::map<PortId, Bytes> saved_;  // paged-out ports' unread bytes, in ordinary memory
  Phase phase_ = Phase::Initialising;
  std::uint32_t expected_seq_ = 0;
};

}  // namespace tsunagi::lmmc
