// Seeded synthetic traces of one link direction for the paging study (docs/lmmc.md,
// "Workloads"). Each names the processes at the writing and reading node, the ports they map,
// and the writes and reads in order. A message is read a few writes after it was written
// (0..max_read_lag, drawn per message), so frames hold unread bytes when they are paged out.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "tsunagi/model/lmmc/replay.hpp"

namespace tsunagi::lmmc {

// What `size` means:
//  Ring          k processes per node, process i sends to process i of the next node each step:
//                k ports on the link, written once per step in nearly the same order.
//  AllToAll      a writers x a readers across the link, personalised exchange in a shifted
//                order: a*a ports, each once per iteration.
//  Stencil       b boundary processes, red-black sweeps (each halo port twice per iteration)
//                and a residual reduction on one port all b writers share: b+1 ports.
//  MasterWorker  one master, w workers of different speeds; a task goes to whichever worker is
//                free first; a control port every worker maps carries a broadcast every w
//                tasks: w+1 ports, order driven by the task times.
//  Random        k ports, each write to one drawn uniformly.
enum class WorkloadKind { Ring, AllToAll, Stencil, MasterWorker, Random };
std::string_view to_string(WorkloadKind kind);
std::optional<WorkloadKind> workload_from_string(std::string_view name);
const std::vector<WorkloadKind>& all_workloads();

struct WorkloadParams {
  std::uint64_t seed = 1;
  int size = 8;
  int iterations = 100;  // steps, iterations, rounds of w tasks, or batches of k random writes
  std::uint32_t min_bytes = 64;
  std::uint32_t max_bytes = 1024;
  int max_read_lag = 8;
};

// Throws std::invalid_argument for a size below 1 (2 for Ring), no iterations, or a message
// size outside 1..one page.
Trace make_trace(WorkloadKind kind, const WorkloadParams& params);

}  // namespace tsunagi::lmmc
