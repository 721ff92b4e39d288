// The LMMC workload (paper 003, docs/lmmc.md "The workload"): every rank holds, for each peer
// it talks to, the writing end of its link to that peer and the reading end of the peer's link
// to it (lmmc::SendEnd, lmmc::RecvEnd). A send is the remote-write routine: it pages the port
// in when it is not resident (remote paging), then ships the paging request and the remote
// write to the peer over the overlay (the network's route crosses the nodes between, which
// forward). The peer writes it into link memory and its process reads it locally at once,
// which sends a credit back. The costs are paid on the node's CPU queue.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tsunagi/model/lmmc/program.hpp"
#include "tsunagi/model/lmmc/recv_end.hpp"
#include "tsunagi/model/lmmc/send_end.hpp"
#include "tsunagi/model/workload/workload.hpp"

namespace tsunagi {

class LmmcNode : public Workload {
 public:
  static constexpr std::uint32_t kTag = 0x4c4d0001;

  explicit LmmcNode(LmmcConfig cfg);

  void start(WorkloadContext& ctx) override;
  void on_message(WorkloadContext& ctx, Rank src, std::uint32_t tag, const Bytes& body,
                  std::uint64_t filler) override;
  void on_compute_done(WorkloadContext& ctx, std::uint64_t task) override;
  void on_shutdown(WorkloadContext& ctx) override;

 protected:
  // A whole message from `src`'s proc has been read (pingpong reacts to it).
  virtual void on_message_read(WorkloadContext& /*ctx*/, Rank /*src*/, int /*proc*/) {}
  // The program may grow (pingpong queues its replies); the node is done when every write is
  // credited back and done_writing() says no more will come.
  virtual bool done_writing() const { return true; }
  // Bytes of the message a reader is assembling (messages over a page arrive in pages).
  virtual std::uint64_t message_size() const { return cfg_.message_bytes; }
  // Processes per node = ports per link end (the ping-pong adds one for its warm-up).
  virtual int ports() const { return cfg_.procs; }
  virtual void on_done(WorkloadContext& ctx);

  void queue_write(WorkloadContext& ctx, LmmcWrite write);
  void check_done(WorkloadContext& ctx);
  // Charges the first-touch cost of proc's reading page from `src` now (a process polling its
  // port before anything arrives), so that it falls outside a measured message.
  void touch_read_page(WorkloadContext& ctx, Rank src, int proc);
  // The initialisation routine pages ports into the free frames of the link end towards `dst`
  // (as many as fit), so that their first writes do not trap; the requests go out now.
  void preload(WorkloadContext& ctx, Rank dst);
  void fail(WorkloadContext& ctx, const std::string& why);

  const LmmcConfig cfg_;
  std::vector<LmmcWrite> program_;
  TimeNs started_at_ = 0;
  TimeNs done_at_ = -1;
  bool failed_ = false;
  std::string error_;

 private:
  struct Peer {
    std::unique_ptr<lmmc::SendEnd> out;  // my link to the peer: I write, it reads
    std::unique_ptr<lmmc::RecvEnd> in;   // its link to me
    std::map<int, std::uint64_t> sent;   // stream offset per proc, out
    std::map<int, std::uint64_t> read;   // stream offset per proc, in
  };
  Peer& peer(Rank r);
  void pump(WorkloadContext& ctx);
  void post_ahead();
  void on_credit(WorkloadContext& ctx, Rank src, const Bytes& body);
  void on_link_message(WorkloadContext& ctx, Rank src, const Bytes& body,
                       const lmmc::Message& message);
  void read_port(WorkloadContext& ctx, Rank src, int proc, std::uint32_t length);
  void after_cpu(WorkloadContext& ctx, TimeNs cost, std::function<void(WorkloadContext&)> then);
  void reject(WorkloadContext& ctx, Rank src, const std::string& why);

  lmmc::LinkConfig link_;
  lmmc::PolicyKind policy_ = lmmc::PolicyKind::Lru;
  std::map<Rank, Peer> peers_;
  std::size_t next_ = 0;           // the write in progress (program_ index)
  std::uint32_t sent_in_msg_ = 0;  // bytes of it already written (messages over a page)
  std::size_t posted_ = 0;         // program_ entries posted to their link end so far
  bool busy_ = false;              // the write routine is running on the CPU
  Rank blocked_on_ = kNoRank;      // flow control: waiting for a credit from this peer
  std::uint64_t next_task_ = 1;
  std::map<std::uint64_t, std::function<void(WorkloadContext&)>> tasks_;
  std::map<std::pair<Rank, int>, std::uint64_t> msg_read_;  // bytes of the current message
  struct Counts {
    std::uint64_t writes = 0, page_faults = 0, first_touches = 0, paging_requests_sent = 0;
    std::uint64_t paging_requests_applied = 0, bytes_written = 0, bytes_read = 0;
    std::uint64_t blocked_writes = 0, credits = 0, rejected = 0, mismatched_bytes = 0;
    std::uint64_t messages_read = 0;
  } counts_;
  std::string first_rejection_;
};

}  // namespace tsunagi
