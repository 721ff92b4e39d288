// Puts and arrivals: what one process sends to another.
//
// A message goes into an empty mailbox of the receiver's pool (completions.hpp), whose
// permanent receiver is the receiving actor, so it starts flowing the moment it is put, like a
// segment a kernel accepts before the application reads it, and it is delivered the moment it
// arrives: SimGrid's end of the transfer puts it on the receiver's completion queue with the
// message itself, and the sender's queue gets the end of its put. The kernel-side signal takes
// the transfer out of its mailbox. Puts start from handles made by helper actors, so nobody
// waits for them (send_handles.hpp).
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "process_actor.hpp"

namespace tsunagi::sim::simgrid {

std::uint32_t ProcessActor::take_put_slot() {
  if (free_puts_.empty()) {
    puts_.emplace_back();
    return static_cast<std::uint32_t>(puts_.size() - 1);
  }
  const std::uint32_t slot = free_puts_.back();
  free_puts_.pop_back();
  return slot;
}

void ProcessActor::put(int target, Message* message, std::uint64_t size, const Watch& what,
                       double rate) {
  message->from = index_;
  const bool probe = message->kind == MessageKind::Ping || message->kind == MessageKind::Pong;
  if (rate <= 0 && world_.small_messages().applies(size, probe) &&
      put_unmodelled(target, message, size, what))
    return;
  ::simgrid::s4u::Mailbox* mailbox = world_.completions().take_mailbox(target);
  std::uint32_t batch = SendHandles::kNoBatch;
  ::simgrid::s4u::CommPtr comm = handles_.take(batch);
  if (comm)
    comm->set_mailbox(mailbox)
        ->set_payload_size(world_.modelled_size(size))
        ->set_src_data(message)
        ->set_src_data_size(sizeof(void*));
  else  // the run has as many helpers as it may: this put is ours, and waited for
    comm = mailbox->put_init(message, world_.modelled_size(size));
  // A per-communication rate (a TCP window over the RTT, issue 15) must be set before the
  // communication starts.
  if (rate > 0) comm->set_rate(rate);
  comm->start();
  const std::uint32_t slot = take_put_slot();
  world_.completions().expect_transfer(comm->get_impl(), mailbox, index_, slot, target, message);
  puts_[slot] = PutSlot{std::move(comm), what, batch};
}

// A small message under CM02 (small_messages.hpp): a kernel timer at the date the adapter
// gives it delivers it, in the kernel's time advance as SimGrid's end of a transfer is. At
// 1,000 processes and more nearly every message is one (handshakes, control frames), and a
// SimGrid transfer each was most of the run's cost (docs/benchmarks.md). False, and nothing
// sent, when a link of its route carries a SimGrid flow: then it must be one too.
bool ProcessActor::put_unmodelled(int target, Message* message, std::uint64_t size,
                                  const Watch& what) {
  // A few recent targets' routes: a handshake sends several messages to one peer in a row, and
  // reading a route allocates (a map per peer would hold N x peers entries at 100,000).
  CachedRoute& cached = route_cache_[static_cast<std::size_t>(target) % kRouteCache];
  if (cached.target != target) {
    cached.target = target;
    cached.route = world_.small_messages().route(self_.host, world_.host_of(target));
  }
  const std::optional<double> due =
      world_.small_messages().arrival(cached.route, size, ::simgrid::s4u::Engine::get_clock());
  if (!due) return false;
  const std::uint32_t slot = take_put_slot();
  puts_[slot] = PutSlot{nullptr, what, SendHandles::kNoBatch};
  world_.completions().send_unmodelled(*due, index_, slot, target, message);
  return true;
}

void ProcessActor::on_put_done(const Completion& done) {
  PutSlot& slot = puts_[done.put_slot];
  const Watch what = slot.watch;
  // Over already. Started from a handle, nobody waits for it: its helper's exit takes it out of
  // SimGrid's books; else the wait does (a walk of this actor's puts in flight). An unmodelled
  // message has no transfer at all.
  if (slot.comm && slot.batch == SendHandles::kNoBatch)
    slot.comm->wait();
  else if (slot.comm)
    handles_.put_over(slot.batch);
  slot.comm = nullptr;
  free_puts_.push_back(done.put_slot);
  if (what.message == MessageKind::Syn) on_syn_put_done(what);
  if (what.message == MessageKind::SynAck || what.message == MessageKind::Stream)
    on_stream_put_done(what);
  if (what.message == MessageKind::Bulk) on_bulk_put_done(what);
}

void ProcessActor::on_arrival(const Completion& done) {
  on_message(done.message);
}

void ProcessActor::on_message(Message* message) {
  if (!driver_.exited()) {
    switch (message->kind) {
      case MessageKind::Syn:
        on_syn(*message);
        break;
      case MessageKind::SynAck:
        on_syn_ack(*message);
        break;
      case MessageKind::Stream:
        on_stream(*message);
        break;
      case MessageKind::Reset:
        on_reset(*message);
        break;
      case MessageKind::Ping:
        on_ping(*message);
        break;
      case MessageKind::Pong:
        on_pong(*message);
        break;
      case MessageKind::Bulk:
        break;  // a throughput probe's payload: the sink only counts it as received
    }
  }
  world_.pool().give_back(message);
}

}  // namespace tsunagi::sim::simgrid
