// The writing end of one direction of a serial link (paper 003 §2.3, sender side). Its frame
// table mirrors the receive buffer at the far end: the writer decides what is resident there,
// and the reader follows its paging requests. Sends are asynchronous remote writes; the writer
// learns that a port's frame has room again from the reader's credits.
//
// Flow control: a port holds at most one page of unread bytes. A write that would exceed it is
// refused (Refusal::FrameFull) and changes nothing; the caller retries after a credit arrives.
// This is STAFF-Link's behaviour one level up: its hardware makes a store to a full FIFO retry.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tsunagi/model/lmmc/policy.hpp"
#include "tsunagi/model/lmmc/tables.hpp"

namespace tsunagi::lmmc {

struct WriteResult {
  std::optional<Refusal> refused;  // set: nothing happened
  std::vector<Bytes> messages;     // for the reading end, in this order
  TimeNs cost = 0;                 // the writer's own time (the reader's is charged there)
  bool fault = false;              // the write trapped and paged (remote paging)
  bool first_touch = false;        // the write paid the first-touch mapping cost
  PortId paged_out = kNoPort;      // the victim's port, if a frame had to be freed
};

// An explicit page-in or page-out (OS reclaim, prefetch); error set: nothing happened.
struct PagingResult {
  std::string error;
  std::vector<Bytes> messages;
  TimeNs cost = 0;
  PortId paged_out = kNoPort;
};

class SendEnd {
 public:
  SendEnd(LinkConfig config, PolicyKind policy);

  // The initialisation routine: writes are refused before it.
  void start() { phase_ = Phase::Running; }
  Phase phase() const { return phase_; }
  std::string open_port(PortId port);
  std::string map(ProcId proc, VPage vpage, PortId port) { return tables_.map(proc, vpage, port); }

  // A process has posted a send to its page: the COMM policy keeps that port resident until
  // the write happens. Returns "" or why not (unmapped).
  std::string post(ProcId proc, VPage vpage);
  // The remote-write routine: translate, trap and page if the port is not resident, then write.
  WriteResult write(ProcId proc, VPage vpage, const Bytes& data);
  PagingResult page_in(PortId port);
  PagingResult page_out(PortId port);
  // A message from the reading end (a credit). Returns "" or why it was rejected.
  std::string on_message(const Bytes& bytes);

  const LinkConfig& config() const { return config_; }
  const LinkTables& tables() const { return tables_; }
  PolicyKind policy() const { return policy_->kind(); }
  std::uint32_t unread(PortId port) const;
  std::uint32_t pending(PortId port) const;
  std::uint64_t writes() const { return writes_; }
  std::uint32_t paging_requests() const { return next_seq_; }
  // The tables, plus: usage kept only for open ports, unread within a page.
  std::string check_consistency() const;

 private:
  struct Usage {  // what COMM knows of a port (FrameView without the port)
    std::uint32_t pending = 0;
    std::uint32_t unread = 0;
    std::uint64_t last_write = 0;
    std::uint64_t period = 0;
    std::uint64_t writes = 0;
  };

  // Sender steps 3-6: pick the frame, emit the request, update the sharers' entries.
  PortId load(PortId port, std::vector<Bytes>& messages);
  FrameIndex choose_frame();
  void record_write(PortId port, std::uint32_t bytes);

  LinkConfig config_;
  LinkTables tables_;
  std::unique_ptr<ReplacementPolicy> policy_;
  std::map<PortId, Usage> usage_;
  Phase phase_ = Phase::Initialising;
  std::uint32_t next_seq_ = 0;
  std::uint64_t writes_ = 0;
};

}  // namespace tsunagi::lmmc
