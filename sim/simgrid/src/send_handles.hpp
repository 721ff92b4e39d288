// Put handles whose puts no actor ever waits for, with bounded memory (issue 19).
//
// SimGrid 3.32 files every put in the list of activities of the actor that made its handle
// (Mailbox::put_init records ActorImpl::self() as the sender) and takes a finished put out of
// that list only when an actor waits for it, with a std::list::remove that walks the whole list:
// one walk per message over everything the sender has in flight, 2/3 of a 200-process
// all-to-all run. Not waiting at all keeps every put of the run in the list (~350 B each).
// Here a helper actor, on the process's host, makes a batch of handles (put_init in its own
// context), so the puts the process starts from them are filed in the helper's list; nobody
// waits for them; once every put of a batch has ended its helper exits, and SimGrid drops the
// helper's whole list in one pass. Memory stays bounded by a few batches per process.
// The next batch is made while the current one still has handles, so the process waits for a
// helper only when one delivery sends more than half a batch.
// Every actor costs the kernel memory maps (its stack and guard page; Linux allows 65,530 per
// process by default, and an all-to-all start at 1,000 processes wanted 16 helpers each): the
// helpers of a run are capped (kMaxHelpers), and past the cap take() returns no handle and the
// process starts the put itself and waits for it, as before send handles.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/forward.h>
#include <simgrid/s4u/Comm.hpp>

namespace tsunagi::sim::simgrid {

namespace sg4 = ::simgrid::s4u;

class SendHandles {
 public:
  // What take() gives as `batch` when it gives no handle.
  static constexpr std::uint32_t kNoBatch = UINT32_MAX;

  // `name` names the helpers in SimGrid (`<name> sender <k>`).
  explicit SendHandles(std::string name) : name_(std::move(name)) {}

  // From the process's actor: a fresh put handle (set its mailbox, payload and size, then
  // start it) and, in `batch`, what to give put_over when its put has ended; null when the
  // run has as many helpers as it may (then start and wait for the put as usual).
  sg4::CommPtr take(std::uint32_t& batch);
  // From the process's actor: the put started from a handle of `batch` has ended.
  void put_over(std::uint32_t batch);

 private:
  struct Batch {
    std::vector<sg4::CommPtr> handles;  // made by the helper, not yet taken
    bool made = false;                  // the helper has run
    std::uint32_t in_flight = 0;        // puts started from its handles, not yet over
    bool retired = false;               // no handle of it will be taken any more
    sg4::SemaphorePtr ready;            // the helper has made the handles
    sg4::SemaphorePtr leave;            // every put of the batch has ended: the helper exits
  };
  // Starts the next batch's helper; false when the run has as many helpers as it may.
  bool start_batch();
  // Retires the current batch and makes the next one current, waiting for its helper if needed;
  // false (nothing changed) when there is no next batch and no helper may be started.
  bool next_batch();
  void release_if_done(std::map<std::uint32_t, Batch>::iterator it);

  std::string name_;
  std::map<std::uint32_t, Batch> batches_;  // by number; the current one and the next, then
                                            // retired ones until their puts have ended
  std::uint32_t current_ = 0;
  std::uint32_t made_ = 0;  // batches started so far
};

}  // namespace tsunagi::sim::simgrid
