// [workload.lmmc]: paper 003's link-memory workload (docs/scenario-format.md, "[workload.lmmc]").
#include <algorithm>
#include <limits>

#include "readers.hpp"
#include "tsunagi/model/lmmc/policy.hpp"
#include "tsunagi/model/lmmc/types.hpp"

namespace tsunagi::scenario {
namespace {

constexpr const char* kPatterns[] = {"pingpong", "ring",          "all_to_all",
                                     "stencil",  "master_worker", "random"};
constexpr std::int64_t kMaxLmmcMessage = std::int64_t{1} << 26;  // 64 MB, page by page
constexpr std::int64_t kMaxLmmcWrites = 10'000'000;              // planned per rank

void read_costs(const Section& s, LmmcConfig& c) {
  c.send_routine = s.duration("send_routine", c.send_routine);
  c.receive_write = s.duration("receive_write", c.receive_write);
  c.first_touch = s.duration("first_touch", c.first_touch);
  c.paging_trap = s.duration("paging_trap", c.paging_trap);
}

}  // namespace

LmmcConfig read_lmmc(const Section& s, LmmcConfig c) {
  c.pattern = s.string("pattern", c.pattern);
  if (std::find_if(std::begin(kPatterns), std::end(kPatterns),
                   [&](const char* name) { return c.pattern == name; }) == std::end(kPatterns))
    s.fail("pattern", "pattern = \"" + c.pattern +
                          "\" is not an LMMC pattern — use \"pingpong\", \"ring\", "
                          "\"all_to_all\", \"stencil\", \"master_worker\" or \"random\"");
  c.policy = s.string("policy", c.policy);
  if (!lmmc::policy_from_string(c.policy))
    s.fail("policy", "policy = \"" + c.policy +
                         "\" is not a replacement policy — use \"fifo\", \"lru\", \"clock\" or "
                         "\"comm\"");
  c.page_size = static_cast<std::uint32_t>(
      s.integer("page_size", c.page_size, 16, lmmc::LinkConfig::kMaxPageSize));
  std::vector<std::int64_t> sizes(c.sizes.begin(), c.sizes.end());
  sizes = s.integer_list("sizes", sizes, 1, kMaxLmmcMessage);
  c.sizes.assign(sizes.begin(), sizes.end());
  c.rounds = s.count("rounds", c.rounds, 1, kMaxRepeats);
  c.warmup = s.count("warmup", c.warmup, 0, kMaxRepeats);
  c.message_bytes = static_cast<std::uint64_t>(
      s.integer("message_bytes", static_cast<std::int64_t>(c.message_bytes), 1, c.page_size));
  c.iterations = s.count("iterations", c.iterations, 1, kMaxIterations);
  c.procs = s.count("procs", c.procs, 1);
  if (c.procs > 4096) s.fail("procs", "procs = " + std::to_string(c.procs) + " — use at most 4096");
  c.frames = s.count("frames", c.frames, 1);
  if (c.frames > lmmc::LinkConfig::kMaxFrames)
    s.fail("frames", "frames = " + std::to_string(c.frames) + " — use at most " +
                         std::to_string(lmmc::LinkConfig::kMaxFrames));
  c.lookahead = s.count("lookahead", c.lookahead, 0, kMaxIterations);
  c.ping = s.count("ping", c.ping, 0, static_cast<int>(max_processes()));
  c.pong = s.count("pong", c.pong, -1, static_cast<int>(max_processes()));
  c.seed_salt = static_cast<std::uint64_t>(
      s.integer("seed_salt", 0, 0, std::numeric_limits<std::int64_t>::max()));
  read_costs(s, c);
  return c;
}

void check_lmmc(const Section& root, const ProtocolConfig& protocol, int processes) {
  const LmmcConfig& c = protocol.workload.lmmc;
  const auto workload = root.sub("workload");
  const auto table = workload ? workload->sub("lmmc") : std::nullopt;
  auto fail = [&](std::string_view key, const std::string& message) {
    if (table && table->has(key)) table->fail(key, message);
    if (workload) workload->fail("kind", message);
    root.fail_here(message);
  };
  if (processes < 2)
    fail("", "the LMMC workload needs 2 processes, the scenario has " + std::to_string(processes) +
                 " — add nodes");
  const Rank pong = c.pong < 0 ? processes - 1 : c.pong;
  if (c.ping >= processes || pong >= processes || c.ping == pong)
    fail(c.ping >= processes ? "ping" : "pong",
         "ping = " + std::to_string(c.ping) + " and pong = " + std::to_string(pong) +
             " must be two distinct ranks of 0 to " + std::to_string(processes - 1));
  // Each rank plans its writes up front: at most every process to every peer, every iteration.
  if (capped_product({c.iterations, c.procs, processes - 1}, kMaxLmmcWrites) > kMaxLmmcWrites)
    fail("iterations", "iterations x procs x (processes - 1) is more than " +
                           std::to_string(kMaxLmmcWrites) +
                           " writes per rank — lower iterations or procs");
  if (c.pattern == "pingpong" && static_cast<std::size_t>(c.procs) < c.sizes.size())
    fail("procs", "the ping-pong puts each size on a port of its own: procs = " +
                      std::to_string(c.procs) + " but " + std::to_string(c.sizes.size()) +
                      " sizes — raise procs to " + std::to_string(c.sizes.size()));
}

}  // namespace tsunagi::scenario
