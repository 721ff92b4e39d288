// The core's RTT probe policy (issue 31): a probe is echoes asked for one at a time, each with
// its deadline; how many answered echoes a probe wants, how long one may take, and how many may
// be lost before the probe ends are decided here, from [protocol.inference], and nowhere in a
// backend. A backend sends one echo per ProbeRttCmd and reports its RTT, or its loss at the
// deadline (docs/backend-contract.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "tsunagi/model/io.hpp"

namespace tsunagi {

struct EchoPolicy {
  TimeNs timeout = kNsPerSec;  // an echo unanswered this long after it left is lost
  int lost_limit = 2;          // one more lost echo ends the probe
};

class RttSampler {
 public:
  // What the caller does next: send `echo`, and/or take `done` (the probe's end: `probe` is the
  // caller's key, `rtt` the minimum over the answered echoes, ok when at least one answered).
  struct Step {
    std::optional<ProbeRttCmd> echo;
    std::optional<RttMeasuredInput> done;
  };

  void set_policy(const EchoPolicy& policy) { policy_ = policy; }
  // Starts probe `key`: `samples` answered echoes of `bytes` to `to` (at least one). A key
  // already in flight ends at once, failed, as the backend contract has it for probe ids.
  Step start(std::uint64_t key, const Endpoint& to, std::uint32_t bytes, int samples, TimeNs now);
  // An echo's outcome. Answered: counted, the next echo goes until `samples` answered. Lost
  // (timed out): sent again under a new id until more than `lost_limit` were lost; the probe
  // then ends with what answered. Target unknown or gone: the probe ends failed. An echo this
  // sampler no longer waits for gives an empty step.
  Step on_echo(const RttMeasuredInput& echo, TimeNs now);
  // Echoes in flight (one per probe).
  std::size_t in_flight() const { return echoes_.size(); }

 private:
  struct Probe {
    Endpoint to;
    std::uint32_t bytes = 64;
    int wanted = 1;
    int answered = 0;
    int lost = 0;
    std::uint32_t sent = 0;  // echoes sent so far: the next one's sample number
    TimeNs best = 0;
  };
  ProbeRttCmd next_echo(std::uint64_t key, Probe& probe, TimeNs now);
  Step finish(std::uint64_t key, bool ok);

  EchoPolicy policy_;
  std::map<std::uint64_t, Probe> probes_;          // by the caller's key
  std::map<std::uint64_t, std::uint64_t> echoes_;  // echo id in flight -> key
  std::uint64_t last_echo_ = 0;                    // echo ids are never reused
};

}  // namespace tsunagi
