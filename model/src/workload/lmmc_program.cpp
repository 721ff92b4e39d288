// The LMMC workload's programs: which rank writes what, in which order. See
// tsunagi/model/lmmc/program.hpp.
#include "tsunagi/model/lmmc/program.hpp"

#include "tsunagi/model/rng.hpp"

namespace tsunagi {
namespace {

void to_each_proc(std::vector<LmmcWrite>& out, const LmmcConfig& cfg, Rank dst) {
  for (int p = 0; p < cfg.procs; ++p)
    out.push_back({dst, p, static_cast<std::uint32_t>(cfg.message_bytes)});
}

}  // namespace

const std::vector<std::string>& lmmc_patterns() {
  static const std::vector<std::string> names{"pingpong", "ring",          "all_to_all",
                                              "stencil",  "master_worker", "random"};
  return names;
}

std::vector<LmmcWrite> lmmc_program(const LmmcConfig& cfg, Rank rank, int ranks,
                                    std::uint64_t seed) {
  std::vector<LmmcWrite> out;
  if (ranks < 2) return out;
  const std::string& pattern = cfg.pattern;
  Rng rng(derive_seed(seed ^ cfg.seed_salt, static_cast<std::uint64_t>(rank)));
  for (int it = 0; it < cfg.iterations; ++it) {
    if (pattern == "ring") {
      to_each_proc(out, cfg, (rank + 1) % ranks);
    } else if (pattern == "all_to_all") {
      for (int k = 1; k < ranks; ++k) to_each_proc(out, cfg, (rank + k) % ranks);
    } else if (pattern == "stencil") {
      for (int bit = 1; bit < ranks; bit <<= 1)
        if ((rank ^ bit) < ranks) to_each_proc(out, cfg, rank ^ bit);
    } else if (pattern == "master_worker") {
      const Rank master = cfg.ping;
      if (rank != master) {
        to_each_proc(out, cfg, master);
        continue;
      }
      for (Rank w = 0; w < ranks; ++w)
        if (w != master) to_each_proc(out, cfg, w);
    } else if (pattern == "random") {
      for (int p = 0; p < cfg.procs; ++p) {
        auto dst = static_cast<Rank>(rng.uniform(static_cast<std::uint64_t>(ranks - 1)));
        if (dst >= rank) ++dst;
        const auto proc = static_cast<int>(rng.uniform(static_cast<std::uint64_t>(cfg.procs)));
        out.push_back({dst, proc, static_cast<std::uint32_t>(cfg.message_bytes)});
      }
    }
  }
  return out;
}

std::uint8_t lmmc_stream_byte(Rank src, int proc, std::uint64_t offset) {
  return static_cast<std::uint8_t>(offset * 7 + static_cast<std::uint64_t>(src) * 13 +
                                   static_cast<std::uint64_t>(proc) * 31);
}

}  // namespace tsunagi
