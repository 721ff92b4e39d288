// Reaching the rendezvous (node.hpp, "node_register.cpp"); when and how often a failed connect
// is tried again is role/registration_retry.hpp's.
#include "node/node.hpp"

namespace tsunagi {

void Node::connect_to_rendezvous() {
  if (phase_ != Phase::Registering) return;
  rendezvous_conn_ =
      open_connection(registration_.rendezvous(), kNoRank, wire::ConnPurpose::Control);
  send_frame(rendezvous_conn_, wire::make_register({rank_, self_, host_, site_}));
}

// Arms the next attempt; false when the registration deadline leaves no room for one.
bool Node::retry_rendezvous() {
  if (phase_ != Phase::Registering) return false;
  const auto salt = static_cast<std::uint64_t>(rank_) << 20;
  std::optional<RegistrationRetry::Retry> retry = registration_.next(*config_, salt, now_);
  if (!retry) return false;
  emit(std::move(retry->trace));
  emit(retry->timer);
  return true;
}

}  // namespace tsunagi
