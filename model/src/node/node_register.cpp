// Reaching the rendezvous (node.hpp, "node_register.cpp"). A process manager's wire-up meets the
// same storm: every rank of a job connects to one server at once. Past the server's port queue
// the SYNs are dropped, and TCP's own retransmissions come at the same fixed instants for all
// of them (1 s, 3 s, ...), so the same storm repeats. Each rank therefore tries again on its
// own, after a random wait that doubles in range with every attempt (full jitter), until the
// run's registration_timeout; only then does it give up with "cannot reach the rendezvous".
#include <algorithm>

#include "node/node.hpp"
#include "tsunagi/model/rng.hpp"

namespace tsunagi {
namespace {
constexpr TimeNs kFirstBackoff = 100 * kNsPerSec / 1000;  // 100 ms
constexpr int kMaxDoublings = 6;                          // then at most 6.4 s
}  // namespace

void Node::connect_to_rendezvous() {
  if (phase_ != Phase::Registering) return;
  rendezvous_conn_ = open_connection(rendezvous_at_, kNoRank, wire::ConnPurpose::Control);
  send_frame(rendezvous_conn_, wire::make_register({rank_, self_, host_, site_}));
}

// Arms the next attempt; false when the registration deadline leaves no room for one.
bool Node::retry_rendezvous() {
  if (phase_ != Phase::Registering) return false;
  const int doublings = std::min(register_attempts_, kMaxDoublings);
  const auto range = static_cast<std::uint64_t>(kFirstBackoff) << doublings;
  // The draw depends on the run's seed, the rank and the attempt only: runs repeat exactly.
  Rng rng(config_->seed ^ (static_cast<std::uint64_t>(rank_) << 20) ^
          static_cast<std::uint64_t>(register_attempts_));
  const auto wait = static_cast<TimeNs>(1 + rng.uniform(range));
  if (now_ + wait + config_->overlay.connect_timeout > started_at_ + config_->registration_timeout)
    return false;
  ++register_attempts_;
  trace("register_retry", {{"attempt", register_attempts_}, {"wait_ns", wait}});
  emit(ArmTimerCmd{kRegisterRetryTimer, now_ + wait});
  return true;
}

}  // namespace tsunagi
