// [workload.multicast]: paper 002's series (docs/scenario-format.md, "[workload.multicast]").
#include <limits>

#include "readers.hpp"
#include "tsunagi/model/multicast/schedule.hpp"

namespace tsunagi::scenario {
namespace {

constexpr std::int64_t kMaxMessage = std::int64_t{1} << 40;  // as a piece may announce

std::vector<std::string> read_algorithms(const Section& s,
                                         const std::vector<std::string>& fallback) {
  std::vector<std::string> names = s.string_list("algorithms", fallback);
  for (const std::string& name : names) {
    multicast::Algorithm algorithm;
    if (!multicast::parse_algorithm(name, algorithm))
      s.fail("algorithms", "unknown multicast algorithm \"" + name +
                               "\" — use \"auto\", \"binomial\", \"scatter_ring\", "
                               "\"scatter_doubling\" or \"topology\"");
  }
  return names;
}

std::uint64_t read_bytes(const Section& s, std::string_view key, std::uint64_t fallback) {
  return static_cast<std::uint64_t>(
      s.integer(key, static_cast<std::int64_t>(fallback), 0, kMaxMessage));
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
  c.repeats = s.count("repeats", c.repeats, 1);
  c.trim = s.number("trim", c.trim, 0, 0.49);
  c.interval = s.duration("interval", c.interval);
  c.master = s.count("master", c.master, -1);
  c.deadline = s.duration("deadline", c.deadline);
  if (c.deadline <= 0) s.fail("deadline", "deadline must be above 0 — e.g. \"60s\"");
  c.verify_bytes_max = read_bytes(s, "verify_bytes_max", c.verify_bytes_max);
  c.binomial_max_bytes = read_bytes(s, "binomial_max_bytes", c.binomial_max_bytes);
  c.binomial_below_members = s.count("binomial_below_members", c.binomial_below_members, 0);
  c.doubling_max_bytes = read_bytes(s, "doubling_max_bytes", c.doubling_max_bytes);
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
