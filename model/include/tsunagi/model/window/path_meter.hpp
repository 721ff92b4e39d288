// How a node measures one peer's path for protocol.window = "auto" (issue 32): a rate that
// neither slow start nor the probe's own window can fool.
//
// A single throughput probe includes slow start, which on a long link lasts many round trips
// (at 33 ms and 1 Gbit/s, ~9 round trips and ~8 MB before the sender fills the link), so its
// average reads far below the path's rate. The meter therefore sends probes in pairs, S and
// 2S bytes, and takes the rate from their difference: both connections open the same way, so
// slow start and the first byte's flight are in both times and cancel in
// (bytes2 - bytes1) / (time2 - time1). Both probes of a pair use the same window W — a pair
// whose probes had different windows reads whatever the difference of two unlike transfers
// gives (ns-3 at 100 ms: up to 3.45 x the link, and the window then went to its ceiling and
// overflowed the path's queues). A pair that reads about W / RTT was held back by its own
// window, so the next pair doubles W; the first pair that reads clearly less than W / RTT
// shows the path's rate.
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
  std::uint64_t window = 0;  // the buffers it was made with
};

// The rate between two probes of different sizes: the extra bytes over the extra time.
// nullopt when the larger probe did not take longer (timing noise on a short path).
std::optional<double> difference_rate(const ProbeSample& smaller, const ProbeSample& larger);

class PathMeter {
 public:
  // The first probe (a scout of `config.probe_bytes`, made with `max_bytes` buffers: its size
  // bounds what it has in flight) gives a floor for the rate and so the first pair's window;
  // pairs follow, their windows within [min_bytes, max_bytes].
  PathMeter(const WindowConfig& config, TimeNs rtt);

  // The size of the next probe; 0 once the meter has decided.
  std::uint64_t next_bytes() const;
  // The buffers of the next probe: the scout's, then the current pair's window.
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

  // The smaller probe of a pair carries this many windows: slow start up to a window W has
  // sent about 2 W, so both probes of the pair end at the window's steady rate.
  static constexpr double kSteadyWindows = 3.0;
  // A pair reading at least this share of W / RTT was held back by its window (TCP delivers
  // at most a window per round trip; real stacks and packet headers keep it a little below).
  static constexpr double kWindowLimited = 0.75;
  // The first pair's window: this many times the bandwidth-delay product of the scout's floor.
  static constexpr double kFirstWindowBdps = 4.0;
  // A larger window never makes a path slower. A pair reading less than this share of an
  // earlier pair's rate overlapped someone else's transfer (another node measuring the same
  // peer) and is made again, at most kRetries times per pair.
  static constexpr double kConsistent = 0.9;
  static constexpr int kRetries = 2;
  // A node measures all its peers this many times, keeping each peer's best: a pass that
  // overlapped another node's reads a share of the path, and the overlaps of one pass are
  // rarely those of the next.
  static constexpr int kPasses = 3;

 private:
  void pair_measured(const ProbeSample& smaller, const ProbeSample& larger);
  std::uint64_t window_for(double rate, double bdps) const;
  std::uint64_t pair_bytes() const;

  TimeNs rtt_;
  std::uint64_t min_window_;
  std::uint64_t max_window_;
  std::uint64_t first_bytes_;
  std::uint64_t window_ = 0;     // of the current pair; 0 before the scout
  std::uint64_t size_step_ = 1;  // the pair's sizes doubled this many times after noise
  int retries_ = 0;              // of the current pair
  std::vector<ProbeSample> samples_;
  std::optional<ProbeSample> smaller_;  // the current pair's first probe, once back
  double best_rate_ = 0;
  double best_pair_rate_ = 0;
  bool done_ = false;
};

}  // namespace tsunagi
