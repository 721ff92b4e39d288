// How the issue-19 baseline (raw_s4u_connectivity.cpp) moves its messages through SimGrid: the
// program's protocol is the same whatever the idiom, only sending and receiving differ.
//
//   wait-all      the usual S4U idiom: one mailbox per rank (the rank's actor its permanent
//                 receiver), a blocking get per message, asynchronous puts all waited for at the
//                 end (Comm::wait_all), or never with --detach (put_init()->detach()). SimGrid
//                 3.32 keeps each unfinished put in its sender's list of activities (a detached
//                 one in one global list) and walks the whole list each time one of its
//                 activities is waited for or ends: a rank's get walks everything it has sent.
//   per-transfer  what an S4U user who knows that cost writes, and what tsunagi's adapter does
//                 (docs/simgrid.md, "Completion queues", "Mailboxes: one per transfer"): each
//                 put goes into an empty mailbox of the receiver's pool, SimGrid's completion
//                 signal takes the ended transfer out of it with a kernel-side get that enters
//                 no actor's list, and queues the arrival for the receiver and the put's end for
//                 the sender; a rank sleeps on one semaphore. Puts start from handles made by
//                 helper actors (send_handles.hpp), so nobody waits for them and no list is
//                 walked, with memory bounded. It uses the adapter's own Completions and
//                 SendHandles classes, so both settle transfers the same way and the ratio
//                 measures what tsunagi does besides.
//   per-transfer-waited  the same, but the rank starts its puts itself and waits for each as
//                 soon as its end is queued (tsunagi's adapter until send handles): SimGrid
//                 walks the rank's list of puts in flight at each wait.
//   per-transfer-unwaited  the rank starts its puts itself and never waits for them: their
//                 SimGrid records stay in its list (never walked) until the rank ends, ~350 B
//                 per message of the run kept alive.
// Messages arrive in mailbox order with wait-all (a get takes the oldest message sent to the
// rank), in the order their transfers end with the per-transfer idioms.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u/Comm.hpp>

#include "completions.hpp"
#include "message.hpp"
#include "send_handles.hpp"

namespace tsunagi::sim::simgrid::bench {

enum class Idiom : std::uint8_t {
  WaitAll,
  WaitAllDetached,
  PerTransfer,
  PerTransferWaited,
  PerTransferUnwaited,
};

// "wait-all", "per-transfer", "per-transfer-waited", "per-transfer-unwaited"; false for anything
// else.
bool parse_idiom(const std::string& name, Idiom& idiom);

class Transport {
 public:
  Transport(Idiom idiom, int ranks);
  // Before the engine runs: the rank's actor, receiver of everything sent to it.
  void set_receiver(int rank, sg4::ActorPtr actor);

  // From rank `from`'s actor: `payload` (never copied, it outlives the run) to rank `to`.
  void send(int from, int to, Message* payload, std::uint64_t bytes);
  // From rank `self`'s actor: the next message for it (blocks).
  const Message* receive(int self);
  // From rank `self`'s actor, once it expects nothing more: returns when all its puts are over
  // (an actor that ends cancels what it still has in flight).
  void finish(int self);

  std::uint64_t messages() const { return messages_; }

 private:
  struct Rank {
    sg4::Mailbox* inbox = nullptr;          // wait-all
    std::vector<sg4::CommPtr> puts;         // wait-all: all; per-transfer: by slot, in flight
    std::vector<std::uint32_t> free_slots;  // per-transfer
    std::uint32_t in_flight = 0;            // per-transfer
    std::unique_ptr<SendHandles> handles;   // per-transfer
    std::vector<std::uint32_t> batch_of;    // per-transfer: handles' batch, by slot
  };
  bool per_transfer() const { return idiom_ != Idiom::WaitAll && idiom_ != Idiom::WaitAllDetached; }
  // per-transfer: the first queued event of rank `self`, sleeping until there is one.
  Completion next_event(int self);
  void put_done(int self, std::uint32_t slot);

  Idiom idiom_;
  std::vector<Rank> ranks_;
  std::unique_ptr<Completions> completions_;  // per-transfer
  std::uint64_t messages_ = 0;
};

}  // namespace tsunagi::sim::simgrid::bench
