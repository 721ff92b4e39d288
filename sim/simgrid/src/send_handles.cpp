// Put handles filed under helper actors. See send_handles.hpp.
#include "send_handles.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Semaphore.hpp>

namespace tsunagi::sim::simgrid {
namespace {

// Handles per helper. Fewer means more helpers (an actor each), more means more finished puts
// kept until their helper exits; the run's decisions are the same whatever the value.
constexpr std::uint32_t kHandlesPerBatch = 64;
// The helper only makes handles and waits: a small stack is plenty.
constexpr unsigned kHelperStackBytes = 64 * 1024;
// Helpers alive at once in the run: with their stacks' maps and the processes' own, well within
// Linux's default 65,530 maps per process up to 10,000 processes (send_handles.hpp).
constexpr int kMaxHelpers = 8192;
// Helpers alive now (one engine per OS process, so one count).
int helpers_alive = 0;

}  // namespace

sg4::CommPtr SendHandles::take(std::uint32_t& batch) {
  batch = kNoBatch;
  if (batches_.empty() && !start_batch()) return nullptr;
  auto it = batches_.find(current_);
  if (!it->second.made || it->second.handles.empty()) {
    if (!next_batch()) return nullptr;
    it = batches_.find(current_);
  }
  Batch& now = it->second;
  // Half used: the next helper makes its handles while this batch lasts (if one may start).
  if (now.handles.size() == kHandlesPerBatch / 2 && made_ == current_ + 1) start_batch();
  sg4::CommPtr handle = std::move(now.handles.back());
  now.handles.pop_back();
  ++now.in_flight;
  batch = current_;
  return handle;
}

void SendHandles::put_over(std::uint32_t batch) {
  const auto it = batches_.find(batch);
  --it->second.in_flight;
  release_if_done(it);
}

bool SendHandles::start_batch() {
  if (helpers_alive >= kMaxHelpers) return false;
  ++helpers_alive;
  const std::uint32_t number = made_++;
  Batch& batch = batches_[number];
  batch.ready = sg4::Semaphore::create(0);
  batch.leave = sg4::Semaphore::create(0);
  // put_init wants a mailbox; each handle gets its real one before it starts.
  sg4::Mailbox* any = sg4::Mailbox::by_name(name_ + " handles");
  sg4::Actor::init(name_ + " sender " + std::to_string(number), sg4::this_actor::get_host())
      ->set_stacksize(kHelperStackBytes)
      ->start([&batch, ready = batch.ready, leave = batch.leave, any] {
        // `batch` is alive until `leave` is released, and not touched after.
        batch.handles.reserve(kHandlesPerBatch);
        for (std::uint32_t i = 0; i < kHandlesPerBatch; ++i)
          batch.handles.push_back(any->put_init());
        batch.made = true;
        ready->release();
        leave->acquire();
        --helpers_alive;
      })
      ->daemonize();  // a helper never keeps the run alive
  return true;
}

bool SendHandles::next_batch() {
  if (made_ == current_ + 1 && batches_.at(current_).made && !start_batch()) return false;
  const auto old = batches_.find(current_);
  Batch& next = batches_.at(current_ + 1 == made_ ? current_ : current_ + 1);
  if (&next != &old->second) {
    old->second.retired = true;
    ++current_;
    release_if_done(old);
  }
  if (!next.made) next.ready->acquire();
  return true;
}

void SendHandles::release_if_done(std::map<std::uint32_t, Batch>::iterator it) {
  if (!it->second.retired || it->second.in_flight != 0) return;
  it->second.leave->release();
  batches_.erase(it);
}

}  // namespace tsunagi::sim::simgrid
