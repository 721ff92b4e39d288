// Baseline for issue 19: the messages of the connectivity benchmark moved by a hand-written
// SimGrid (S4U) program, on the platform tsunagi builds from the same scenario file.
//
//   raw_s4u_connectivity [--detach] SCENARIO [KEY=VALUE ...]  (overrides as in `tsunagi run --set`)
//
// Every rank is one actor with one mailbox (the actor is its permanent receiver, as in tsunagi,
// so a message flows the moment it is sent). What moves, for N ranks:
//   handshakes   every rank sends a 64 B SYN to every other rank at once and answers each SYN
//                with a 64 B SYN-ACK: N(N-1) of each (plan "all" with routing "direct": both
//                ends of every pair connect);
//   workload     once a rank has all its SYN-ACKs it sends workload.connectivity.message_bytes
//                to every other rank, and answers each such message with as many bytes:
//                N(N-1) of each.
// Left out, and small beside these at any N: the rendezvous (registration, the directory, the
// barrier before the workload, shutdown), framing headers, and the barrier itself (a rank starts
// its workload when its own handshakes are done). Each receive is a blocking get (SimGrid hands
// messages over in the order they were sent to the mailbox). Sends are asynchronous; a rank
// waits for all of its sends at the end (Comm::wait_all), or, with --detach, never
// (put_init()->detach()). SimGrid 3.32 keeps each unfinished send in its sender's list of
// activities (and a detached one in one global list) and scans the whole list each time one is
// waited for or ends, so both variants pay per message for what is in flight; docs/benchmarks.md
// has both measured.
//
// Prints one line: ranks, messages, simulated end (s).
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "engine_setup.hpp"
#include "platform.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace {

namespace sg4 = ::simgrid::s4u;
using tsunagi::sim::simgrid::Platform;

enum Kind : int { kSyn = 0, kSynAck = 1, kHello = 2, kAnswer = 3, kKinds = 4 };
constexpr std::uint64_t kControlBytes = 64;

// A message is a pointer to a fixed note naming its sender and kind: nothing is allocated per
// message, as a lean S4U program would do.
struct Note {
  int from = 0;
  Kind kind = kSyn;
};

struct Run {
  int ranks = 0;
  std::uint64_t message_bytes = 1024;
  std::vector<sg4::Mailbox*> inbox;
  std::vector<Note> notes;  // ranks x kKinds, never moved once the actors start
  std::uint64_t messages = 0;
  bool detach = false;
  std::vector<std::vector<sg4::CommPtr>> sends;  // per rank, waited for at its end

  const Note* note(int from, Kind kind) const {
    return &notes[static_cast<std::size_t>(from) * kKinds + static_cast<std::size_t>(kind)];
  }
  void send(int from, int to, Kind kind, std::uint64_t bytes) {
    ++messages;
    // The note is const and outlives the run; SimGrid only passes its address on.
    auto* payload = const_cast<Note*>(note(from, kind));
    sg4::Mailbox* mailbox = inbox[static_cast<std::size_t>(to)];
    if (detach)
      mailbox->put_init(payload, bytes)->detach();
    else
      sends[static_cast<std::size_t>(from)].push_back(mailbox->put_async(payload, bytes));
  }
};

void rank_body(Run& run, int self) {
  const int others = run.ranks - 1;
  for (int peer = 0; peer < run.ranks; ++peer)
    if (peer != self) run.send(self, peer, kSyn, kControlBytes);
  int syns = 0, syn_acks = 0, hellos = 0, answers = 0;
  sg4::Mailbox* inbox = run.inbox[static_cast<std::size_t>(self)];
  while (syns < others || syn_acks < others || hellos < others || answers < others) {
    const auto* note = inbox->get<Note>();
    switch (note->kind) {
      case kSyn:
        ++syns;
        run.send(self, note->from, kSynAck, kControlBytes);
        break;
      case kSynAck:
        if (++syn_acks == others)
          for (int peer = 0; peer < run.ranks; ++peer)
            if (peer != self) run.send(self, peer, kHello, run.message_bytes);
        break;
      case kHello:
        ++hellos;
        run.send(self, note->from, kAnswer, run.message_bytes);
        break;
      case kAnswer:
        ++answers;
        break;
      case kKinds:
        break;
    }
  }
  sg4::Comm::wait_all(run.sends[static_cast<std::size_t>(self)]);
}

}  // namespace

int main(int argc, char** argv) {
  const bool detach = argc > 1 && std::string(argv[1]) == "--detach";
  const int first = detach ? 2 : 1;
  if (argc <= first) {
    std::fprintf(stderr, "usage: %s [--detach] SCENARIO [KEY=VALUE ...]\n", argv[0]);
    return 2;
  }
  try {
    std::vector<std::string> overrides(argv + first + 1, argv + argc);
    const auto scenario = tsunagi::scenario::load_scenario_file(argv[first], overrides);
    const auto engine = tsunagi::sim::simgrid::make_engine();
    tsunagi::sim::simgrid::configure_engine(scenario);
    const Platform platform = tsunagi::sim::simgrid::build_platform(
        scenario.network, tsunagi::sim::simgrid::platform_options(scenario));
    const std::vector<int> host_of = tsunagi::scenario::rank_to_host(scenario);

    Run run;
    run.detach = detach;
    run.ranks = tsunagi::scenario::process_count(scenario);
    run.message_bytes = scenario.protocol.workload.connectivity.message_bytes;
    run.sends.resize(static_cast<std::size_t>(run.ranks));
    for (int r = 0; r < run.ranks; ++r)
      for (int k = 0; k < kKinds; ++k) run.notes.push_back(Note{r, static_cast<Kind>(k)});
    for (int r = 0; r < run.ranks; ++r) {
      sg4::Mailbox* inbox = sg4::Mailbox::by_name("r" + std::to_string(r));
      run.inbox.push_back(inbox);
      sg4::Host* host =
          platform.hosts[static_cast<std::size_t>(host_of[static_cast<std::size_t>(r)])];
      inbox->set_receiver(
          sg4::Actor::create("r" + std::to_string(r), host, [&run, r] { rank_body(run, r); }));
    }
    engine->run();
    std::printf("raw_s4u_connectivity: %d ranks, %llu messages, simulated end %.9f s\n", run.ranks,
                static_cast<unsigned long long>(run.messages), sg4::Engine::get_clock());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "raw_s4u_connectivity: %s\n", error.what());
    return 1;
  }
  return 0;
}
