// See registration_retry.hpp.
#include "role/registration_retry.hpp"

#include <algorithm>

#include "tsunagi/model/rng.hpp"

namespace tsunagi {
namespace {
constexpr TimeNs kFirstBackoff = 100 * kNsPerSec / 1000;  // 100 ms
constexpr int kMaxDoublings = 6;                          // then at most 6.4 s
}  // namespace

std::optional<TimeNs> RegistrationRetry::next_wait(const ProtocolConfig& config, std::uint64_t salt,
                                                   TimeNs now) {
  const int doublings = std::min(attempts_, kMaxDoublings);
  const auto range = static_cast<std::uint64_t>(kFirstBackoff) << doublings;
  Rng rng(config.seed ^ salt ^ static_cast<std::uint64_t>(attempts_));
  const auto wait = static_cast<TimeNs>(1 + rng.uniform(range));
  // An attempt that could not finish its connect before the deadline is not made.
  if (now + wait + config.overlay.connect_timeout > started_at_ + config.registration_timeout)
    return std::nullopt;
  ++attempts_;
  return wait;
}

std::optional<RegistrationRetry::Retry> RegistrationRetry::next(const ProtocolConfig& config,
                                                                std::uint64_t salt, TimeNs now) {
  const std::optional<TimeNs> wait = next_wait(config, salt, now);
  if (!wait) return std::nullopt;
  return Retry{TraceCmd{"register_retry", {{"attempt", attempts_}, {"wait_ns", *wait}}},
               ArmTimerCmd{kTimer, now + *wait}};
}

}  // namespace tsunagi
