// Trace-driven page-fault study of LMMC remote paging (docs/lmmc.md, "Ablation"): every
// workload x every replacement policy (and Belady's offline optimum) x frames per link, over
// several seeds, replayed through the protocol core. One CSV row per run.
//
//   lmmc_ablation OUT.csv [--seeds N] [--iterations N] [--max-frames N] [--lookahead N]
//
// The CSV goes only where OUT.csv says; validation/lmmc/plot_ablation.py draws it.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tsunagi/model/lmmc/belady.hpp"
#include "tsunagi/model/lmmc/replay.hpp"
#include "tsunagi/model/lmmc/workloads.hpp"

using namespace tsunagi;
using namespace tsunagi::lmmc;

namespace {

struct Options {
  std::string out;
  int seeds = 5;
  int iterations = 300;
  int max_frames = 8;
  int lookahead = 4;  // posted sends COMM may see; it also runs with 0
};

// Sizes chosen so the port counts (7..10) straddle the frame range 1..8.
int size_of(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::Ring:
      return 8;  // 8 ports
    case WorkloadKind::AllToAll:
      return 3;  // 9 ports
    case WorkloadKind::Stencil:
      return 6;  // 7 ports
    case WorkloadKind::MasterWorker:
      return 8;  // 9 ports
    case WorkloadKind::Random:
      return 10;  // 10 ports
  }
  return 1;
}

bool parse(int argc, char** argv, Options& o) {
  std::vector<std::string> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    if (args[i] == "--seeds" && has_value)
      o.seeds = std::atoi(args[++i].c_str());
    else if (args[i] == "--iterations" && has_value)
      o.iterations = std::atoi(args[++i].c_str());
    else if (args[i] == "--max-frames" && has_value)
      o.max_frames = std::atoi(args[++i].c_str());
    else if (args[i] == "--lookahead" && has_value)
      o.lookahead = std::atoi(args[++i].c_str());
    else if (o.out.empty() && args[i].rfind("--", 0) != 0)
      o.out = args[i];
    else
      return false;
  }
  return !o.out.empty() && o.seeds >= 1 && o.iterations >= 1 && o.max_frames >= 1 &&
         o.max_frames <= LinkConfig::kMaxFrames && o.lookahead >= 0;
}

double ms(TimeNs ns) {
  return static_cast<double>(ns) / static_cast<double>(kNsPerMs);
}

// workload,ports,policy,lookahead,frames,seed,writes,faults,fault_rate,page_outs,
// bytes_paged_out,refusals,writer_ms,reader_ms
std::string row(const Trace& trace, const std::string& policy, int lookahead, int frames,
                std::uint64_t seed, const ReplayStats& s, std::uint64_t faults, bool costs) {
  std::ostringstream out;
  out << trace.workload << ',' << trace.ports().size() << ',' << policy << ',' << lookahead << ','
      << frames << ',' << seed << ',' << s.writes << ',' << faults << ','
      << static_cast<double>(faults) / static_cast<double>(s.writes) << ',';
  if (costs)
    out << s.page_outs << ',' << s.bytes_paged_out << ',' << s.refusals << ',' << ms(s.writer_cost)
        << ',' << ms(s.reader_cost);
  else
    out << ",," << s.refusals << ",,";  // Belady is a count, not a run: no costs
  return out.str();
}

// All runs of one trace at one frame count; false when a replay failed.
bool runs(const Trace& trace, int frames, std::uint64_t seed, const Options& o, std::ostream& csv) {
  ReplayOptions options;
  options.link.frames = frames;
  ReplayStats last;
  for (PolicyKind policy : all_policies()) {
    for (int lookahead : {0, o.lookahead}) {
      options.policy = policy;
      options.lookahead = lookahead;
      last = replay(trace, options);
      if (!last.error.empty()) {
        std::cerr << trace.workload << " " << to_string(policy) << ": " << last.error << "\n";
        return false;
      }
      csv << row(trace, std::string(to_string(policy)), lookahead, frames, seed, last, last.faults,
                 true)
          << '\n';
      if (o.lookahead == 0) break;
    }
  }
  csv << row(trace, "belady", 0, frames, seed, last, belady_faults(last.references, frames), false)
      << '\n';
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::cerr << "usage: lmmc_ablation OUT.csv [--seeds N] [--iterations N] [--max-frames N] "
                 "[--lookahead N]\n";
    return 2;
  }
  std::ofstream csv(o.out);
  if (!csv) {
    std::cerr << "cannot write " << o.out << "\n";
    return 1;
  }
  csv << "workload,ports,policy,lookahead,frames,seed,writes,faults,fault_rate,page_outs,"
         "bytes_paged_out,refusals,writer_ms,reader_ms\n";
  for (WorkloadKind kind : all_workloads())
    for (int seed = 1; seed <= o.seeds; ++seed) {
      WorkloadParams params;
      params.seed = static_cast<std::uint64_t>(seed);
      params.size = size_of(kind);
      params.iterations = o.iterations;
      const Trace trace = make_trace(kind, params);
      for (int frames = 1; frames <= o.max_frames; ++frames)
        if (!runs(trace, frames, params.seed, o, csv)) return 1;
    }
  std::cout << "wrote " << o.out << "\n";
  return 0;
}
