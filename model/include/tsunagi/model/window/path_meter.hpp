// How a node measures one peer's path for protocol.window = "auto" (issue 32): a rate that
// slow start cannot fool. A single throughput probe includes slow start, which on a long link
// lasts many round trips (at 33 ms and 1 Gbit/s, ~9 round trips and ~8 MB before the sender
// fills the link), so its average reads far below the path's rate. The meter sends probes of
// growing sizes S, 2S, 4S, ... and takes the rate of each from the difference with the one
// before: every probe opens its connection the same way, so slow start and the first byte's
// flight are in both times and cancel in (bytes2 - bytes1) / (time2 - time1).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tsunagi/model/config.hpp"
#include "tsunagi/model/types.hpp"
#include "tsunagi/model/window/window_policy.hpp"

namespace tsunagi {

// One throughput probe's outcome.
struct ProbeSample {
  std::uint64_t bytes = 0;
  TimeNs elapsed = 0;
};

// The rate between two probes of different sizes: the extra bytes over the extra time.
// nullopt when the larger probe did not take longer (timing noise on a short path).
std::optional<double> difference_rate(const ProbeSample& smaller, const ProbeSample& larger);

class PathMeter {
 public:
  // The probes go from `config.probe_bytes` up, doubling, to at most
  // max(2 x probe_bytes, 2 x max_bytes): slow start towards a window of `max_bytes` is over
  // after about twice that many bytes, and no window above `max_bytes` is granted.
  PathMeter(const WindowConfig& config, TimeNs rtt);

  // The size of the next probe; 0 once the meter has decided.
  std::uint64_t next_bytes() const;
  // The buffers of the next probe: `max_bytes` for the first; then at most kWindowGrowth times
  // the bandwidth-delay product seen so far (at least `min_bytes`), so that the probe can still
  // double its rate without filling the path's queues: two probes that overlap (another node
  // measuring the same peer) with huge windows overflow a queue and lose whole windows.
  std::uint64_t next_window() const;
  // A probe of `bytes` finished after `elapsed` (ok probes only).
  void measured(std::uint64_t bytes, TimeNs elapsed);
  // A probe failed: the meter decides on what it has (nothing if no probe got through).
  void failed();

  bool done() const { return done_; }
  // The path: the RTT and the highest rate any probe or pair of probes showed; nullopt when no
  // probe got through.
  std::optional<PathEstimate> estimate() const;
  const std::vector<ProbeSample>& samples() const { return samples_; }

  // The meter stops once the smaller probe of a pair carried this many bandwidth-delay
  // products: slow start reaches the path's rate after about two.
  static constexpr double kSteadyBdps = 3.0;
  // ... or once a pair's rate grew by less than this over the pair before: in slow start each
  // doubling of the size doubles it.
  static constexpr double kStillGrowing = 1.25;
  static constexpr double kWindowGrowth = 4.0;
  // A node measures all its peers this many times, keeping each peer's best: a probe that
  // overlapped another node's reads a share of the path (ns-3, 3-site WAN: 0.19-0.64 of the
  // link), and the overlaps of one pass are rarely those of the next.
  static constexpr int kPasses = 3;

 private:
  void decide_after(const ProbeSample& latest);

  TimeNs rtt_;
  std::uint64_t min_window_;
  std::uint64_t max_window_;
  std::uint64_t first_bytes_;
  std::uint64_t cap_bytes_;
  std::vector<ProbeSample> samples_;
  double best_rate_ = 0;
  std::optional<double> last_difference_;
  bool done_ = false;
};

}  // namespace tsunagi
