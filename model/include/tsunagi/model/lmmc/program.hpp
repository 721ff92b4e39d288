// What every rank of the LMMC workload (model/src/workload/lmmc*.cpp) writes, in program order
// (docs/lmmc.md, "The workload"). A rank runs one application thread that writes its messages one
// after another; each message goes from one of its processes (proc) to the same-numbered process's
// port on `dst`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tsunagi/model/config.hpp"

namespace tsunagi {

struct LmmcWrite {
  Rank dst = 0;
  int proc = 0;
  std::uint32_t bytes = 0;
  bool operator==(const LmmcWrite&) const = default;
};

// The names pattern may take, for the loader's message.
const std::vector<std::string>& lmmc_patterns();

// Rank `rank` of `ranks`: its writes for every pattern but pingpong (which reacts to messages).
//   ring          each iteration, every proc to the next rank
//   all_to_all    each iteration, every other rank in shifted order (rank+1, rank+2, ...)
//   stencil       each iteration, the partners rank xor 2^k (a hypercube's neighbours) in turn
//   master_worker the master sends each worker a task per proc and iteration; a worker sends the
//                 master a result per proc and iteration
//   random        iterations x procs writes, each to a uniformly drawn other rank and proc
std::vector<LmmcWrite> lmmc_program(const LmmcConfig& cfg, Rank rank, int ranks,
                                    std::uint64_t seed);

// The byte at `offset` of the stream from `src`'s proc to `dst`'s port: receivers check it.
std::uint8_t lmmc_stream_byte(Rank src, int proc, std::uint64_t offset);

}  // namespace tsunagi
