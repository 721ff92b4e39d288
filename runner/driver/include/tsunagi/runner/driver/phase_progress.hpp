// Which protocol phase a run is in, and how far along it is, read off the trace events every
// backend already passes to the runner (issue 33: progress like OMNeT++'s Cmdenv). The core
// traces "directory" when every rank registered, "groups" when inference is done, one "plan"
// and one "routes" per rank while connections and routes are set up, "shutdown" when every
// workload is done. A phase with a count (ranks with routes, ranks exited, all-pairs views)
// gets an estimate of its own end once a tenth of it is done; the others get none: nothing
// tells how long inference or a workload will take before they end.
#pragma once

#include <cstdint>
#include <string>

namespace tsunagi::runner {

class PhaseProgress {
 public:
  enum class Phase { Registering, Inference, Connecting, Workload, ShuttingDown };

  // The run's rank count (the table grows row by row).
  void set_ranks(int ranks) { ranks_ = ranks; }

  // A trace event of kind `kind`, seen at wall time `wall` (seconds, any fixed origin).
  void on_trace(const std::string& kind, double wall);
  // A rank exited.
  void on_rank_exit() { ++exits_; }

  Phase phase() const { return phase_; }
  // "inference: 12345 RTT probes", "connecting: routes 812 of 1000, ETA 3 s", ...
  std::string describe(std::uint64_t rtt_probes, double wall) const;

 private:
  void enter(Phase next, double wall);
  // ", ETA N s" for `done` of `total` since the phase began; empty before a tenth is done.
  std::string eta(int done, int total, double wall) const;

  int ranks_ = 0;
  Phase phase_ = Phase::Registering;
  double phase_started_ = 0;
  int retries_ = 0;  // register_retry: connects to the rendezvous tried again
  int views_ = 0;    // rtt_view: ranks done with all-pairs probing (topology plan)
  int plans_ = 0;
  int routes_ = 0;
  int exits_ = 0;
};

const char* phase_name(PhaseProgress::Phase phase);

}  // namespace tsunagi::runner
