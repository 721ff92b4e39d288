// Belady's offline optimum for the LMMC workload's own programs (docs/lmmc.md, "Ablation
// through the simulator"): the reference string of every link end (writer rank -> peer) is the
// ports of that rank's writes to that peer in program order, the same string the simulated run
// pages on, whatever the policy. Prints one CSV row per frame count: MIN's faults summed over
// all link ends, and the writes.
//
//   lmmc_program_belady PATTERN NODES PROCS ITERATIONS MAX_FRAMES [SEED]
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "tsunagi/model/lmmc/belady.hpp"
#include "tsunagi/model/lmmc/program.hpp"

using namespace tsunagi;

int main(int argc, char** argv) {
  if (argc < 6) {
    std::cerr << "usage: lmmc_program_belady PATTERN NODES PROCS ITERATIONS MAX_FRAMES [SEED]\n";
    return 2;
  }
  LmmcConfig cfg;
  cfg.pattern = argv[1];
  const int nodes = std::atoi(argv[2]);
  cfg.procs = std::atoi(argv[3]);
  cfg.iterations = std::atoi(argv[4]);
  const int max_frames = std::atoi(argv[5]);
  const std::uint64_t seed = argc > 6 ? std::strtoull(argv[6], nullptr, 10) : 1;
  if (nodes < 2 || cfg.procs < 1 || cfg.iterations < 1 || max_frames < 1) {
    std::cerr << "lmmc_program_belady: NODES >= 2, PROCS, ITERATIONS, MAX_FRAMES >= 1\n";
    return 2;
  }
  std::map<std::pair<Rank, Rank>, std::vector<lmmc::PortId>> strings;
  std::uint64_t writes = 0;
  for (Rank r = 0; r < nodes; ++r)
    for (const LmmcWrite& w : lmmc_program(cfg, r, nodes, seed)) {
      strings[{r, w.dst}].push_back(static_cast<lmmc::PortId>(w.proc + 1));
      ++writes;
    }
  std::cout << "pattern,frames,belady_faults,writes\n";
  for (int frames = 1; frames <= max_frames; ++frames) {
    std::uint64_t faults = 0;
    for (const auto& [link, refs] : strings) faults += lmmc::belady_faults(refs, frames);
    std::cout << cfg.pattern << "," << frames << "," << faults << "," << writes << "\n";
  }
  return 0;
}
