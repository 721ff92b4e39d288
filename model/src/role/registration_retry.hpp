// Reaching the rendezvous, for the roles that register with it (Node, Relay). A process
// manager's wire-up meets the same storm: every rank of a job connects to one server at once.
// Past the server's port queue the SYNs are dropped, and TCP's own retransmissions come at the
// same fixed instants for all of them (1 s, 3 s, ...), so the same storm repeats. And on a real
// cluster the rendezvous may simply not listen yet (srun starts every daemon at once). So a
// process whose connect fails tries again on its own, after a random wait that doubles in range
// with every attempt (full jitter: uniform below 100 ms x 2^attempt, at most 6.4 s), until the
// run's registration_timeout after its start; only then does it give up with "cannot reach the
// rendezvous". The decision is the core's, on the core's timer, the same on every backend.
#pragma once

#include <cstdint>
#include <optional>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/io.hpp"
#include "tsunagi/model/types.hpp"

namespace tsunagi {

class RegistrationRetry {
 public:
  // The role's timer for the next attempt; the bit keeps it apart from the connection set's
  // deadline timers and from workload timers (small numbers).
  static constexpr std::uint64_t kTimer = std::uint64_t{1} << 61;

  // The process started at `now`; it registers at `rendezvous`.
  void start(const Endpoint& rendezvous, TimeNs now) {
    rendezvous_ = rendezvous;
    started_at_ = now;
  }
  const Endpoint& rendezvous() const { return rendezvous_; }
  int attempts() const { return attempts_; }

  // A connect to the rendezvous failed at `now`: the wait before the next attempt, or nothing
  // when the registration deadline leaves no room for one. `salt` tells processes apart (the
  // rank, a relay's label); with the run's seed and the attempt it makes the draw, so runs
  // repeat exactly.
  std::optional<TimeNs> next_wait(const ProtocolConfig& config, std::uint64_t salt, TimeNs now);
  // next_wait as the role's commands: its trace, then the timer for the next attempt.
  struct Retry {
    TraceCmd trace;
    ArmTimerCmd timer;
  };
  std::optional<Retry> next(const ProtocolConfig& config, std::uint64_t salt, TimeNs now);

 private:
  Endpoint rendezvous_;
  TimeNs started_at_ = 0;
  int attempts_ = 0;
};

}  // namespace tsunagi
