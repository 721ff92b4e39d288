// The baseline's ways of moving messages through SimGrid. See raw_s4u_transport.hpp.
#include "raw_s4u_transport.hpp"

#include <utility>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Semaphore.hpp>

namespace tsunagi::sim::simgrid::bench {

bool parse_idiom(const std::string& name, Idiom& idiom) {
  if (name == "wait-all")
    idiom = Idiom::WaitAll;
  else if (name == "per-transfer")
    idiom = Idiom::PerTransfer;
  else if (name == "per-transfer-waited")
    idiom = Idiom::PerTransferWaited;
  else if (name == "per-transfer-unwaited")
    idiom = Idiom::PerTransferUnwaited;
  else
    return false;
  return true;
}

Transport::Transport(Idiom idiom, int ranks)
    : idiom_(idiom), ranks_(static_cast<std::size_t>(ranks)) {
  if (!per_transfer()) return;
  completions_ = std::make_unique<Completions>(ranks);
  if (idiom_ != Idiom::PerTransfer) return;
  for (int rank = 0; rank < ranks; ++rank)
    ranks_[static_cast<std::size_t>(rank)].handles =
        std::make_unique<SendHandles>("r" + std::to_string(rank));
}

void Transport::set_receiver(int rank, sg4::ActorPtr actor) {
  if (per_transfer()) return completions_->set_receiver(rank, std::move(actor));
  Rank& state = ranks_[static_cast<std::size_t>(rank)];
  state.inbox = sg4::Mailbox::by_name("r" + std::to_string(rank));
  state.inbox->set_receiver(std::move(actor));
}

void Transport::send(int from, int to, Message* payload, std::uint64_t bytes) {
  ++messages_;
  Rank& sender = ranks_[static_cast<std::size_t>(from)];
  if (!per_transfer()) {
    sg4::Mailbox* inbox = ranks_[static_cast<std::size_t>(to)].inbox;
    if (idiom_ == Idiom::WaitAllDetached)
      inbox->put_init(payload, bytes)->detach();
    else
      sender.puts.push_back(inbox->put_async(payload, bytes));
    return;
  }
  sg4::Mailbox* mailbox = completions_->take_mailbox(to);
  std::uint32_t batch = SendHandles::kNoBatch;
  sg4::CommPtr comm;
  if (sender.handles) comm = sender.handles->take(batch);
  if (comm) {
    comm->set_mailbox(mailbox)
        ->set_payload_size(bytes)
        ->set_src_data(payload)
        ->set_src_data_size(sizeof(void*))
        ->start();
  } else {
    comm = mailbox->put_async(payload, bytes);
  }
  std::uint32_t slot;
  if (sender.free_slots.empty()) {
    slot = static_cast<std::uint32_t>(sender.puts.size());
    sender.puts.emplace_back();
  } else {
    slot = sender.free_slots.back();
    sender.free_slots.pop_back();
  }
  ++sender.in_flight;
  if (sender.handles) {
    if (sender.batch_of.size() <= slot) sender.batch_of.resize(slot + 1);
    sender.batch_of[slot] = batch;
  }
  completions_->expect_transfer(comm->get_impl(), mailbox, from, slot, to, payload);
  sender.puts[slot] = std::move(comm);
}

const Message* Transport::receive(int self) {
  if (!per_transfer()) return ranks_[static_cast<std::size_t>(self)].inbox->get<Message>();
  for (;;) {
    // The arrival's kernel-side get is released here: SimGrid has posted its transfer.
    const Completion event = next_event(self);
    if (event.kind == CompletionKind::Arrival) return event.message;
    put_done(self, event.put_slot);
  }
}

void Transport::finish(int self) {
  Rank& rank = ranks_[static_cast<std::size_t>(self)];
  if (!per_transfer()) return sg4::Comm::wait_all(rank.puts);
  while (rank.in_flight > 0) {
    const Completion event = next_event(self);
    if (event.kind == CompletionKind::PutDone) put_done(self, event.put_slot);
  }
}

Completion Transport::next_event(int self) {
  Wakeup& wakeup = completions_->of(self);
  while (wakeup.ready.empty()) {
    wakeup.sleeping = true;
    wakeup.bell->acquire();
  }
  Completion event = std::move(wakeup.ready.front());
  wakeup.ready.pop_front();
  return event;
}

void Transport::put_done(int self, std::uint32_t slot) {
  Rank& rank = ranks_[static_cast<std::size_t>(self)];
  // Over already: the wait only takes the put out of the rank's list of activities. Unwaited,
  // the put stays there (and alive) until the rank ends; started from a handle, in its
  // helper's list until the helper exits.
  const bool from_handle = rank.handles && rank.batch_of[slot] != SendHandles::kNoBatch;
  if (from_handle)
    rank.handles->put_over(rank.batch_of[slot]);
  else if (idiom_ != Idiom::PerTransferUnwaited)
    rank.puts[slot]->wait();
  rank.puts[slot] = nullptr;
  rank.free_slots.push_back(slot);
  --rank.in_flight;
}

}  // namespace tsunagi::sim::simgrid::bench
