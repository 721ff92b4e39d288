// SimGrid's completion signals turned into per-process queues and doorbells. See completions.hpp.
#include "completions.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Activity.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Semaphore.hpp>

namespace tsunagi::sim::simgrid {
namespace {

// SimGrid's signals are global and cannot be disconnected through s4u: they are connected once
// per OS process and forward to the run's instance.
Completions* current = nullptr;

void connect_signals_once() {
  static bool connected = false;
  if (connected) return;
  connected = true;
  sg4::Link::on_communication_state_change_cb(
      [](const ::simgrid::kernel::resource::NetworkAction& network_action,
         ::simgrid::kernel::resource::Action::State /*previous*/) {
        if (current == nullptr) return;
        // SimGrid 3.32 installs no header for NetworkAction; it is an Action and nothing else
        // (src/kernel/resource/NetworkModel.hpp: class NetworkAction : public Action), so the
        // Action is at the same address.
        const auto& action =
            reinterpret_cast<const ::simgrid::kernel::resource::Action&>(network_action);
        const auto state = action.get_state();
        // Every transfer of a run ends FINISHED (the platforms have no failures); a FAILED one
        // is reported the same way so that no actor waits for it forever.
        if (state != ::simgrid::kernel::resource::Action::State::FINISHED &&
            state != ::simgrid::kernel::resource::Action::State::FAILED)
          return;
        current->on_transfer_done(action.get_activity(),
                                  state == ::simgrid::kernel::resource::Action::State::FINISHED);
      });
  sg4::Activity::on_completion_cb([](const sg4::Activity& activity) {
    if (current != nullptr) current->on_exec_done(activity);
  });
}

}  // namespace

Completions::Completions(int processes)
    : wakeups_(static_cast<std::size_t>(processes)),
      mailboxes_(static_cast<std::size_t>(processes)) {
  for (Wakeup& wakeup : wakeups_) wakeup.bell = sg4::Semaphore::create(0);
  connect_signals_once();
  current = this;
}

Completions::~Completions() {
  if (postman_ != nullptr) postman_->remove();  // kernel timers outlive the run otherwise
  if (current == this) current = nullptr;
}

void Completions::set_receiver(int index, sg4::ActorPtr actor) {
  mailboxes_[static_cast<std::size_t>(index)].receiver = std::move(actor);
}

sg4::Mailbox* Completions::take_mailbox(int receiver) {
  MailboxPool& pool = mailboxes_[static_cast<std::size_t>(receiver)];
  if (!pool.free.empty()) {
    sg4::Mailbox* mailbox = pool.free.back();
    pool.free.pop_back();
    return mailbox;
  }
  // Named after the receiving process and a counter; made once, reused.
  sg4::Mailbox* mailbox = sg4::Mailbox::by_name("process " + std::to_string(receiver) + " box " +
                                                std::to_string(pool.made++));
  mailbox->set_receiver(pool.receiver);
  return mailbox;
}

void Completions::expect_transfer(const void* comm, sg4::Mailbox* mailbox, int sender,
                                  std::uint32_t put_slot, int receiver, Message* message) {
  const Flight flight{mailbox, sender, put_slot, receiver, message};
  // A transfer ends in the kernel's time advance, never while the actor that started it runs,
  // unless SimGrid fails it at its start (a failed link: our platforms have none). Such a
  // transfer is reported, and its mailbox, which still holds it, is not reused.
  if (!ended_unclaimed_.empty() && ended_unclaimed_.erase(comm) != 0)
    return deliver(flight, comm, nullptr);
  flights_.insert(comm, flight);
}

void Completions::expect_exec(const sg4::Activity* exec, int owner, std::uint64_t task) {
  execs_.emplace(exec, ExecOwner{owner, task});
}

void Completions::ring(int index) {
  Wakeup& wakeup = of(index);
  if (!wakeup.sleeping) return;
  wakeup.sleeping = false;
  wakeup.bell->release();
}

void Completions::on_transfer_done(const void* comm, bool finished) {
  Flight flight;
  if (!flights_.take(comm, flight)) {
    ended_unclaimed_.insert(comm);
    return;
  }
  // A failed transfer stays in its mailbox: SimGrid only settles ended flows this way.
  deliver(flight, comm, finished ? settle(flight) : nullptr);
}

// SimGrid 3.32 (CommImpl::irecv on a mailbox with a permanent receiver): a get that matches a
// transfer whose flow is over but not yet posted marks it done and enters it in nobody's list
// of activities. Its mailbox holds this transfer only, so the get takes this one. The get is
// issued by maestro (we run inside the kernel's time advance), so no actor is involved and the
// s4u handle only has to outlive SimGrid's post of the transfer (it writes the payload size into
// it then), so it rides with the arrival.
sg4::CommPtr Completions::settle(const Flight& flight) {
  // The get names maestro as its receiver, and every transfer it settles holds maestro by a
  // counted pointer. Maestro's own count starts at zero (SimGrid holds it by a plain pointer),
  // so the first transfer freed would free maestro: one reference is taken once and never
  // given back (maestro lives as long as the engine; SimGrid frees it itself).
  static const auto* const maestro_pin = new sg4::ActorPtr(sg4::Actor::self());
  (void)maestro_pin;
  sg4::CommPtr get = flight.mailbox->get_async<void>(&settled_);
  mailboxes_[static_cast<std::size_t>(flight.receiver)].free.push_back(flight.mailbox);
  return get;
}

void Completions::deliver(const Flight& flight, const void* comm, sg4::CommPtr settled) {
  of(flight.sender)
      .ready.push_back(
          Completion{CompletionKind::PutDone, comm, nullptr, nullptr, flight.put_slot, 0});
  of(flight.receiver)
      .ready.push_back(
          Completion{CompletionKind::Arrival, comm, flight.message, std::move(settled), 0, 0});
  ring(flight.sender);
  ring(flight.receiver);
}

void Completions::send_unmodelled(double due, int sender, std::uint32_t put_slot, int receiver,
                                  Message* message) {
  unmodelled_.push(Unmodelled{due, unmodelled_sent_++, sender, put_slot, receiver, message});
  if (postman_ == nullptr || due < postman_->get_date()) arm_postman(due);
}

void Completions::arm_postman(double due) {
  if (postman_ != nullptr) postman_->remove();
  postman_ = ::simgrid::kernel::timer::Timer::set(due, [this] {
    postman_ = nullptr;  // SimGrid frees a timer once it has fired
    deliver_due_unmodelled();
  });
}

// Every sender hears that its message arrived before any receiver handles what arrived at the
// same date: a sender looks at its target then (a SYN to a process that has exited is refused,
// ProcessActor::on_syn_put_done), and a target that accepts several SYNs of one instant and
// exits must not look as if it had exited before the last of them arrived.
void Completions::deliver_due_unmodelled() {
  const double now = sg4::Engine::get_clock();
  due_now_.clear();
  while (!unmodelled_.empty() && unmodelled_.top().due <= now) {
    due_now_.push_back(unmodelled_.top());
    unmodelled_.pop();
  }
  for (const Unmodelled& m : due_now_) {
    of(m.sender).ready.push_back(
        Completion{CompletionKind::PutDone, nullptr, nullptr, nullptr, m.put_slot, 0});
    ring(m.sender);
  }
  for (const Unmodelled& m : due_now_) {
    of(m.receiver)
        .ready.push_back(Completion{CompletionKind::Arrival, nullptr, m.message, nullptr, 0, 0});
    ring(m.receiver);
  }
  if (!unmodelled_.empty()) arm_postman(unmodelled_.top().due);
}

// Fired for every activity that completes while someone waits on it, too (our own clean-up
// waits): only computations this class started are looked up.
void Completions::on_exec_done(const sg4::Activity& exec) {
  const auto it = execs_.find(&exec);
  if (it == execs_.end()) return;
  const ExecOwner owner = it->second;
  execs_.erase(it);
  of(owner.owner)
      .ready.push_back(
          Completion{CompletionKind::ExecDone, nullptr, nullptr, nullptr, 0, owner.task});
  ring(owner.owner);
}

}  // namespace tsunagi::sim::simgrid
