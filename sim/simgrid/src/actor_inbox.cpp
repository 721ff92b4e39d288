// The inbox: one mailbox per process receives everything sent to it.
//
// Each inbox has its actor as permanent receiver, so a message starts flowing the moment it is
// put, like a segment a kernel accepts before the application reads it. The actor keeps a get
// posted for every message on its way in plus a few spare ones: a new message then finds a free
// get and is watched from the start, so it is delivered exactly when it arrives. A message that
// finds no free get waits in SimGrid's done queue and is picked up at the actor's next wake, in
// the order messages were sent: it is late only if it arrives before that wake. (Keeping more
// spare gets after such bursts changed 2 of 159,600 RTTs in all-pairs probe storms of 400 ranks
// and doubled the run time, so two it is.)
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "process_actor.hpp"

namespace tsunagi::sim::simgrid {
namespace {

constexpr std::uint64_t kSpareGets = 2;

}  // namespace

void ProcessActor::post_gets() {
  const std::uint64_t on_the_way = self_.put_to - consumed_;
  while (static_cast<std::uint64_t>(gets_posted_) < on_the_way + kSpareGets) {
    std::uint32_t slot;
    if (free_slots_.empty()) {
      slot = static_cast<std::uint32_t>(get_slots_.size());
      get_slots_.push_back(nullptr);  // a deque never moves the slots pending gets write to
    } else {
      slot = free_slots_.back();
      free_slots_.pop_back();
    }
    watch(self_.inbox->get_async<Message>(&get_slots_[slot]),
          Watch{WatchKind::InboxGet, MessageKind::Stream, -1, 0, slot});
    ++gets_posted_;
  }
}

void ProcessActor::put(int target, Message* message, std::uint64_t size, const Watch& what,
                       double rate) {
  message->from = index_;
  ActorSlot& receiver = world_.slot(target);
  ++receiver.put_to;
  if (rate > 0) {
    // A per-communication rate must be set before the communication starts.
    ::simgrid::s4u::CommPtr comm = receiver.inbox->put_init(message, world_.modelled_size(size));
    comm->set_rate(rate);
    watch(comm->start(), what);
  } else {
    watch(receiver.inbox->put_async(message, world_.modelled_size(size)), what);
  }
  ++puts_in_flight_;
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
