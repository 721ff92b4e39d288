// RTT probes as echoes the core asks for one at a time (rtt_sampler.hpp).
#include "tsunagi/model/topology/rtt_sampler.hpp"

#include <algorithm>
#include <utility>

namespace tsunagi {

RttSampler::Step RttSampler::start(std::uint64_t key, const Endpoint& to, std::uint32_t bytes,
                                   int samples, TimeNs now) {
  if (probes_.count(key) != 0) return Step{std::nullopt, RttMeasuredInput{key, 0, false}};
  Probe& probe = probes_[key];
  probe.to = to;
  probe.bytes = bytes;
  probe.wanted = std::max(1, samples);
  return Step{next_echo(key, probe, now), std::nullopt};
}

ProbeRttCmd RttSampler::next_echo(std::uint64_t key, Probe& probe, TimeNs now) {
  const std::uint64_t id = ++last_echo_;
  echoes_[id] = key;
  return ProbeRttCmd{id, probe.to, probe.bytes, now + policy_.timeout, probe.sent++};
}

RttSampler::Step RttSampler::on_echo(const RttMeasuredInput& echo, TimeNs now) {
  const auto it = echoes_.find(echo.probe);
  if (it == echoes_.end()) return {};
  const std::uint64_t key = it->second;
  echoes_.erase(it);
  Probe& probe = probes_.at(key);
  if (echo.ok) {
    probe.best = probe.answered == 0 ? echo.rtt : std::min(probe.best, echo.rtt);
    if (++probe.answered >= probe.wanted) return finish(key, true);
  } else if (!echo.timed_out) {
    return finish(key, false);  // the world knows no such target, or it is gone
  } else if (++probe.lost > policy_.lost_limit) {
    return finish(key, probe.answered > 0);
  }
  return Step{next_echo(key, probe, now), std::nullopt};
}

RttSampler::Step RttSampler::finish(std::uint64_t key, bool ok) {
  const auto it = probes_.find(key);
  const TimeNs best = ok ? it->second.best : 0;
  probes_.erase(it);
  return Step{std::nullopt, RttMeasuredInput{key, best, ok}};
}

}  // namespace tsunagi
