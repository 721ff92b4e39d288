// [workload.multicast]: paper 002's series (docs/scenario-format.md, "[workload.multicast]").
#include <algorithm>
#include <limits>

#include "readers.hpp"
#include "tsunagi/model/multicast/schedule.hpp"
#include "tsunagi/model/wire.hpp"

namespace tsunagi::scenario {
namespace {

// A multicast message as filler: at most the wire's filler limit (16 GiB), like message_bytes
// elsewhere; 2^40 passed and then no backend could move it.
constexpr auto kMaxMessage = static_cast<std::int64_t>(wire::kMaxFiller);
constexpr std::uint64_t kMinSegment = 4096;

std::vector<std::string> read_algorithms(const Section& s,
                                         const std::vector<std::string>& fallback) {
  std::vector<std::string> names = s.string_list("algorithms", fallback);
  for (const std::string& name : names) {
    multicast::Algorithm algorithm;
    if (!multicast::parse_algorithm(name, algorithm))
      s.fail("algorithms", "unknown multicast algorithm \"" + name +
                               "\" — use \"auto\", \"binomial\", \"scatter_ring\", "
                               "\"scatter_doubling\", \"topology\" or \"pipeline\"");
  }
  return names;
}

std::uint64_t read_bytes(const Section& s, std::string_view key, std::uint64_t fallback,
                         std::int64_t max = kMaxMessage) {
  return static_cast<std::uint64_t>(s.integer(key, static_cast<std::int64_t>(fallback), 0, max));
}

// The series is planned whole by the master (every multicast and its members): its length
// bounds the master's memory and the run's time.
void check_series(const Section& s, const MulticastConfig& c) {
  const std::int64_t multicasts = capped_product(
      {static_cast<std::int64_t>(c.algorithms.size()), static_cast<std::int64_t>(c.sizes.size()),
       static_cast<std::int64_t>(c.group_sizes.size()), c.repeats},
      kMaxMulticasts);
  if (multicasts > kMaxMulticasts)
    s.fail("repeats", "algorithms x sizes x group_sizes x repeats is more than " +
                          std::to_string(kMaxMulticasts) +
                          " multicasts — lower repeats or shorten the lists");
}

}  // namespace

MulticastConfig read_multicast(const Section& s, MulticastConfig c) {
  c.algorithms = read_algorithms(s, c.algorithms);
  std::vector<std::int64_t> sizes(c.sizes.begin(), c.sizes.end());
  sizes = s.integer_list("sizes", sizes, 0, kMaxMessage);
  c.sizes.assign(sizes.begin(), sizes.end());
  std::vector<std::int64_t> groups(c.group_sizes.begin(), c.group_sizes.end());
  groups = s.integer_list("group_sizes", groups, 1, std::numeric_limits<int>::max());
  c.group_sizes.assign(groups.begin(), groups.end());
  c.groups = s.string("groups", c.groups);
  if (c.groups != "strided" && c.groups != "random")
    s.fail("groups",
           "groups must be \"strided\" (workers W/r*i, paper 002) or \"random\" "
           "(a new seeded group for every multicast), not \"" +
               c.groups + "\"");
  c.repeats = s.count("repeats", c.repeats, 1, kMaxRepeats);
  c.trim = s.number("trim", c.trim, 0, 0.49);
  c.interval = s.duration("interval", c.interval);
  c.master = s.count("master", c.master, -1);
  c.deadline = s.duration("deadline", c.deadline);
  if (c.deadline <= 0) s.fail("deadline", "deadline must be above 0 — e.g. \"60s\"");
  c.verify_bytes_max = read_bytes(s, "verify_bytes_max", c.verify_bytes_max, kMaxVerifiedBytes);
  c.binomial_max_bytes = read_bytes(s, "binomial_max_bytes", c.binomial_max_bytes);
  c.binomial_below_members = s.count("binomial_below_members", c.binomial_below_members, 0);
  c.doubling_max_bytes = read_bytes(s, "doubling_max_bytes", c.doubling_max_bytes);
  c.pipeline_min_bytes = read_bytes(s, "pipeline_min_bytes", c.pipeline_min_bytes);
  c.segment_bytes = read_bytes(s, "segment_bytes", c.segment_bytes);
  // Below 4 KiB a 16 GiB message would be more segments than a piece may name (kMaxSegments).
  if (c.segment_bytes > 0 && c.segment_bytes < kMinSegment)
    s.fail("segment_bytes", "segment_bytes must be 0 (automatic) or at least " +
                                std::to_string(kMinSegment) + " bytes, not " +
                                std::to_string(c.segment_bytes));
  check_series(s, c);
  return c;
}

void check_multicast(const Section& root, const ProtocolConfig& protocol, int processes) {
  const MulticastConfig& c = protocol.workload.multicast;
  auto workload = root.sub("workload");
  auto table = workload ? workload->sub("multicast") : std::nullopt;
  auto fail = [&](std::string_view key, const std::string& message) {
    if (table && table->has(key)) table->fail(key, message);
    if (workload) workload->fail("kind", message);
    root.fail_here(message);
  };
  if (processes < 2)
    fail("", "a multicast needs a master and at least one worker, the scenario has " +
                 std::to_string(processes) + " process(es) — add hosts");
  if (c.master >= processes)
    fail("master", "master = " + std::to_string(c.master) + " but there are " +
                       std::to_string(processes) + " ranks — -1 means the last rank");
  const int workers = processes - 1;
  // Every member of a verified multicast holds the message: in one simulator process, all of
  // a group's copies at once.
  std::int64_t verified = 0;
  for (std::uint64_t bytes : c.sizes)
    if (bytes <= c.verify_bytes_max)
      verified = std::max(verified, static_cast<std::int64_t>(bytes));
  const int largest =
      c.group_sizes.empty() ? 0 : *std::max_element(c.group_sizes.begin(), c.group_sizes.end());
  if (capped_product({verified, largest + 1}, kMaxVerifiedTotal) > kMaxVerifiedTotal)
    fail("verify_bytes_max",
         "a verified multicast of " + std::to_string(verified) + " bytes to " +
             std::to_string(largest) + " members holds more than " +
             std::to_string(kMaxVerifiedTotal >> 20) +
             " MiB of copies — lower verify_bytes_max (larger messages travel as filler)");
  for (int r : c.group_sizes)
    if (r > workers)
      fail("group_sizes", "a group of " + std::to_string(r) +
                              " needs that many workers; this run "
                              "has " +
                              std::to_string(workers) +
                              " (all ranks but the master) — "
                              "add hosts or drop " +
                              std::to_string(r) + " from group_sizes");
}

}  // namespace tsunagi::scenario
