// What wakes an actor (issue 19): one doorbell per process and the queue of what completed for
// it, filled by SimGrid's own completion signals.
//
// Why not Activity::wait_any over what a process has in flight: SimGrid 3.32 registers the
// waiting actor on every activity of the list and unregisters it from all of them at each wake,
// so every event cost O(activities in flight), that is O(connections) for a process talking to
// all its peers (the rendezvous, all-to-all plans). Here the kernel tells us which transfer or
// computation ended (Link::on_communication_state_change for transfers, Activity::on_completion
// for computations started by the kernel), the owner's queue gets it in completion order, and a
// sleeping actor waits on one semaphore: an event costs the same whatever the process has in
// flight. docs/simgrid.md, "The loop", has the whole story.
//
// Where puts go: each process has a pool of mailboxes, each holding at most one transfer at a
// time, all with the process's actor as permanent receiver (so a transfer starts the moment it
// is put). When a transfer ends, the kernel-side signal takes it out of its mailbox with a get
// issued there and then: SimGrid settles a get that matches a transfer whose flow has just
// ended at once, without entering it in any actor's list of activities. Waiting on a get, as
// the receiver did before, removed it from the receiver's list with a std::list::remove over
// everything the receiver had in flight (SimGrid 3.32's CommImpl::finish): O(connections) per
// message for a process talking to all its peers. One mailbox per transfer is what makes the
// match certain: SimGrid hands out the oldest transfer of a mailbox, not the one that ended.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <simgrid/forward.h>
#include <simgrid/s4u/Comm.hpp>

#include "message.hpp"
#include "pointer_table.hpp"

namespace tsunagi::sim::simgrid {

namespace sg4 = ::simgrid::s4u;

enum class CompletionKind : std::uint8_t {
  Arrival,   // a message reached the process's inbox
  PutDone,   // a message the process sent has arrived (its put is over)
  ExecDone,  // a computation of the process ended
};

struct Completion {
  CompletionKind kind = CompletionKind::Arrival;
  const void* comm = nullptr;  // Arrival, PutDone: the transfer (SimGrid's activity)
  Message* message = nullptr;  // Arrival
  // Arrival: the get that took the transfer out of its mailbox. SimGrid writes into it when it
  // posts the transfer, after the signal: it is released once the actor has the arrival.
  sg4::CommPtr settled;
  std::uint32_t put_slot = 0;  // PutDone: the sender's record of the put
  std::uint64_t task = 0;      // ExecDone
};

// One process's wake-up state. `sleeping` is set while its actor waits on `bell`, so each wait
// gets at most one release and the semaphore never banks tokens.
struct Wakeup {
  sg4::SemaphorePtr bell;
  bool sleeping = false;
  std::deque<Completion> ready;
};

class Completions {
 public:
  // Creates the doorbells and connects SimGrid's signals; one instance per run (SimGrid keeps
  // one engine per OS process).
  explicit Completions(int processes);
  ~Completions();
  Completions(const Completions&) = delete;
  Completions& operator=(const Completions&) = delete;

  Wakeup& of(int index) { return wakeups_[static_cast<std::size_t>(index)]; }

  // The actor of process `index`: receiver of every mailbox of its pool.
  void set_receiver(int index, sg4::ActorPtr actor);
  // An empty mailbox of process `receiver`'s pool for one put; it goes back to the pool when
  // its transfer has ended.
  sg4::Mailbox* take_mailbox(int receiver);
  // A put into `mailbox` (from take_mailbox) just started: when its transfer ends, the sender
  // gets PutDone and the receiver an Arrival, both in the order SimGrid ends transfers.
  void expect_transfer(const void* comm, sg4::Mailbox* mailbox, int sender, std::uint32_t put_slot,
                       int receiver, Message* message);
  // A message that never enters SimGrid (World::unmodelled), due at simulated date `due`: at
  // that date the sender gets PutDone and the receiver an Arrival, as for a transfer, in the
  // order they were sent among equal dates. One kernel timer, at the earliest date, serves them
  // all (a timer per message cost an allocation and a heap insert each).
  void send_unmodelled(double due, int sender, std::uint32_t put_slot, int receiver,
                       Message* message);
  // A computation started by the kernel for process `owner`: ExecDone when it ends.
  void expect_exec(const sg4::Activity* exec, int owner, std::uint64_t task);
  // Wakes the process if its actor sleeps (kernel context: signals and timers).
  void ring(int index);

  // From SimGrid's signals (kernel context): a transfer or an activity ended (`finished`:
  // normally, not FAILED).
  void on_transfer_done(const void* comm, bool finished);
  void on_exec_done(const sg4::Activity& exec);

 private:
  struct Flight {
    sg4::Mailbox* mailbox = nullptr;
    int sender = -1;
    std::uint32_t put_slot = 0;
    int receiver = -1;
    Message* message = nullptr;
  };
  struct ExecOwner {
    int owner = -1;
    std::uint64_t task = 0;
  };

  struct MailboxPool {
    sg4::ActorPtr receiver;
    std::vector<sg4::Mailbox*> free;
    std::uint32_t made = 0;
  };

  struct Unmodelled {
    double due = 0;
    std::uint64_t seq = 0;  // sending order breaks ties
    int sender = -1;
    std::uint32_t put_slot = 0;
    int receiver = -1;
    Message* message = nullptr;
    bool operator>(const Unmodelled& other) const {
      return due != other.due ? due > other.due : seq > other.seq;
    }
  };

  void deliver(const Flight& flight, const void* comm, sg4::CommPtr settled);
  // The postman: delivers every unmodelled message due by now (kernel context), then sets
  // itself for the next one.
  void deliver_due_unmodelled();
  void arm_postman(double due);
  // Takes the ended transfer out of its mailbox (kernel context, before SimGrid posts the
  // transfer) and returns the mailbox to its pool.
  sg4::CommPtr settle(const Flight& flight);

  // Looked up, never iterated: the run stays deterministic.
  PointerTable<Flight> flights_;
  std::unordered_set<const void*> ended_unclaimed_;  // ended before expect_transfer saw them
  std::unordered_map<const sg4::Activity*, ExecOwner> execs_;
  std::vector<Wakeup> wakeups_;
  std::vector<MailboxPool> mailboxes_;  // per process
  void* settled_ = nullptr;             // where settling gets copy the payload nobody reads
  std::priority_queue<Unmodelled, std::vector<Unmodelled>, std::greater<>> unmodelled_;
  std::uint64_t unmodelled_sent_ = 0;
  std::vector<Unmodelled> due_now_;  // the postman's round, kept for its capacity
  ::simgrid::kernel::timer::Timer* postman_ = nullptr;  // at the earliest due date, if any
};

}  // namespace tsunagi::sim::simgrid
