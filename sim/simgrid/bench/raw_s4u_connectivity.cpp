// Baseline for issue 19: the messages of the connectivity benchmark moved by a hand-written
// SimGrid (S4U) program, on the platform tsunagi builds from the same scenario file.
//
//   raw_s4u_connectivity [--idiom per-transfer|per-transfer-waited|per-transfer-unwaited|
//                                wait-all] [--detach]
//                        [--workload-only] [--no-barrier] SCENARIO [KEY=VALUE ...]
//   (overrides as in `tsunagi run --set`)
//
// Every rank is one actor. What moves, for N ranks, per ordered pair (a, b) (plan "all" with
// routing "direct": both ends of every pair connect), with the sizes of tsunagi's segments and
// frames in this scenario:
//   connection   a -> b SYN (64 B); b answers SYN-ACK (64 B) and the authentication challenge
//                (48 B); a answers its proof (80 B) with its hello (37 B) in the same message;
//                b answers the acceptance (64 B): the connection is up (tsunagi's authenticated
//                handshake, docs/security.md; 5 messages);
//   workload     once all of a's connections are up, and those of every other rank (a barrier,
//                as tsunagi's rendezvous holds one: the last rank to be ready sends each other
//                rank a 64 B "go", N-1 messages), a sends workload.connectivity.message_bytes
//                (+ 36 B of frame header) to b, and b answers with as many bytes (2 messages).
// 7 N(N-1) + N-1 messages. tsunagi moves a few more: the rendezvous's O(N) messages (registration,
// directory, the barrier before the workload, shutdown) and, when its hello leaves after the
// proof rather than with it, a separate 37 B message (at 100 processes tsunagi puts 72,701
// messages into SimGrid, this program 69,399). --no-barrier starts a rank's workload as soon as
// its own connections are up (7 N(N-1) messages). --workload-only moves the first baseline's 4
// N(N-1) messages instead (SYN, SYN-ACK, the message, the answer; no authentication). How messages
// go through SimGrid is the idiom (raw_s4u_transport.hpp): per-transfer (the default) settles
// transfers as tsunagi's adapter does, wait-all is the naive S4U idiom whose own cost grows with
// everything a rank has sent (--detach: its sends detached instead of waited for).
// docs/benchmarks.md has them measured.
//
// Prints one line: ranks, messages, simulated end (s).
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include "engine_setup.hpp"
#include "platform.hpp"
#include "raw_s4u_transport.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace {

namespace sg4 = ::simgrid::s4u;
using tsunagi::sim::simgrid::Message;
using tsunagi::sim::simgrid::Platform;
using tsunagi::sim::simgrid::bench::Idiom;
using tsunagi::sim::simgrid::bench::Transport;

enum Kind : int {
  kSyn = 0,
  kSynAck,
  kChallenge,
  kProofHello,
  kAccept,
  kData,
  kAnswer,
  kGo,  // the barrier before the workload is over
  kKinds,
};
// tsunagi's sizes: a SYN or SYN-ACK segment, the handshake frames, a frame's header.
constexpr std::uint64_t kControlBytes = 64;
constexpr std::uint64_t kChallengeBytes = 48;
constexpr std::uint64_t kProofHelloBytes = 80 + 37;
constexpr std::uint64_t kAcceptBytes = 64;
constexpr std::uint64_t kDataHeaderBytes = 36;

struct Run {
  int ranks = 0;
  std::uint64_t message_bytes = 1024;
  bool authenticate = true;
  bool barrier = true;
  int ranks_connected = 0;  // ranks with all their connections up
  // A message is a pointer to a fixed note naming its sender (`from`) and kind (`token`):
  // nothing is allocated per message, as a lean S4U program would do. ranks x kKinds, never
  // moved once the actors start.
  std::vector<Message> notes;
  Transport* transport = nullptr;

  void send(int from, int to, Kind kind, std::uint64_t bytes) {
    Message* note =
        &notes[static_cast<std::size_t>(from) * kKinds + static_cast<std::size_t>(kind)];
    transport->send(from, to, note, bytes);
  }
};

void send_to_all(Run& run, int self, Kind kind, std::uint64_t bytes) {
  for (int peer = 0; peer < run.ranks; ++peer)
    if (peer != self) run.send(self, peer, kind, bytes);
}

void rank_body(Run& run, int self) {
  const int others = run.ranks - 1;
  const std::uint64_t data_bytes = run.message_bytes + (run.authenticate ? kDataHeaderBytes : 0);
  send_to_all(run, self, kSyn, kControlBytes);
  std::vector<int> received(kKinds, 0);
  // Kinds this variant moves: every one of them arrives once from every peer.
  std::vector<Kind> expected{kSyn, kSynAck, kData, kAnswer};
  if (run.authenticate) expected.insert(expected.end(), {kChallenge, kProofHello, kAccept});
  const auto done = [&] {
    for (Kind kind : expected)
      if (received[static_cast<std::size_t>(kind)] < others) return false;
    return true;
  };
  // The connection that completes a rank's set: its workload starts, once every rank is there
  // (tsunagi's rendezvous holds such a barrier; the last rank tells the others, 64 B each).
  const auto connection_up = [&](Kind kind) {
    if (received[static_cast<std::size_t>(kind)] != others) return;
    if (run.barrier && ++run.ranks_connected < run.ranks) return;
    if (run.barrier) send_to_all(run, self, kGo, kControlBytes);
    send_to_all(run, self, kData, data_bytes);
  };
  while (!done()) {
    const Message* note = run.transport->receive(self);
    const auto kind = static_cast<Kind>(note->token);
    ++received[static_cast<std::size_t>(kind)];
    switch (kind) {
      case kSyn:
        run.send(self, note->from, kSynAck, kControlBytes);
        if (run.authenticate) run.send(self, note->from, kChallenge, kChallengeBytes);
        break;
      case kSynAck:
        if (!run.authenticate) connection_up(kSynAck);
        break;
      case kChallenge:
        run.send(self, note->from, kProofHello, kProofHelloBytes);
        break;
      case kProofHello:
        run.send(self, note->from, kAccept, kAcceptBytes);
        break;
      case kAccept:
        connection_up(kAccept);
        break;
      case kData:
        run.send(self, note->from, kAnswer, data_bytes);
        break;
      case kGo:
        send_to_all(run, self, kData, data_bytes);
        break;
      case kAnswer:
      case kKinds:
        break;
    }
  }
  run.transport->finish(self);
}

int usage(const char* program) {
  std::fprintf(
      stderr,
      "usage: %s [--idiom per-transfer|per-transfer-waited|per-transfer-unwaited|wait-all] "
      "[--detach] "
      "[--workload-only] [--no-barrier] SCENARIO [KEY=VALUE ...]\n"
      "  --detach: wait-all with detached sends (no other idiom)\n",
      program);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Idiom idiom = Idiom::PerTransfer;
  bool idiom_given = false;
  bool detach = false;
  bool workload_only = false;
  bool barrier = true;
  int first = 1;
  for (; first < argc && argv[first][0] == '-'; ++first) {
    const std::string flag = argv[first];
    if (flag == "--detach")
      detach = true;
    else if (flag == "--workload-only")
      workload_only = true;
    else if (flag == "--no-barrier")
      barrier = false;
    else if (flag == "--idiom" && first + 1 < argc &&
             tsunagi::sim::simgrid::bench::parse_idiom(argv[++first], idiom))
      idiom_given = true;
    else
      return usage(argv[0]);
  }
  if (detach) {
    if (idiom_given && idiom != Idiom::WaitAll) return usage(argv[0]);
    idiom = Idiom::WaitAllDetached;
  }
  if (argc <= first) return usage(argv[0]);
  try {
    std::vector<std::string> overrides(argv + first + 1, argv + argc);
    const auto scenario = tsunagi::scenario::load_scenario_file(argv[first], overrides);
    const auto engine = tsunagi::sim::simgrid::make_engine();
    tsunagi::sim::simgrid::configure_engine(scenario);
    const Platform platform = tsunagi::sim::simgrid::build_platform(
        scenario.network, tsunagi::sim::simgrid::platform_options(scenario));
    const std::vector<int> host_of = tsunagi::scenario::rank_to_host(scenario);

    Run run;
    run.authenticate = !workload_only;
    run.barrier = barrier;
    run.ranks = tsunagi::scenario::process_count(scenario);
    run.message_bytes = scenario.protocol.workload.connectivity.message_bytes;
    for (int r = 0; r < run.ranks; ++r)
      for (int k = 0; k < kKinds; ++k) {
        Message& note = run.notes.emplace_back();
        note.from = r;
        note.token = static_cast<std::uint64_t>(k);
      }
    Transport transport(idiom, run.ranks);
    run.transport = &transport;
    for (int r = 0; r < run.ranks; ++r) {
      sg4::Host* host =
          platform.hosts[static_cast<std::size_t>(host_of[static_cast<std::size_t>(r)])];
      transport.set_receiver(
          r, sg4::Actor::create("r" + std::to_string(r), host, [&run, r] { rank_body(run, r); }));
    }
    engine->run();
    std::printf("raw_s4u_connectivity: %d ranks, %llu messages, simulated end %.9f s\n", run.ranks,
                static_cast<unsigned long long>(transport.messages()), sg4::Engine::get_clock());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "raw_s4u_connectivity: %s\n", error.what());
    return 1;
  }
  return 0;
}
