// [workload.multicast]: the series is read with its defaults, lists accept one value or many,
// and every mistake names the line and the fix (docs/scenario-format.md).
#include <catch2/catch.hpp>

#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;
using Catch::Matchers::Contains;

namespace {

// Line 7 is the first line a test appends (inside [workload.multicast]).
const std::string kHead = R"(name = "mcast"
[[network.switch]]
name = "core"
hosts = 9
[workload]
kind = "multicast"
[workload.multicast]
)";

std::pair<int, std::string> failure_of(const std::string& tail) {
  try {
    load_scenario_string(kHead + tail, "m.toml");
  } catch (const ScenarioError& e) {
    return {e.line(), e.what()};
  }
  FAIL("loaded without error");
  return {};
}

}  // namespace

TEST_CASE("multicast scenario: lists, defaults and the master") {
  const Scenario s = load_scenario_string(kHead + R"(algorithms = ["binomial", "topology"]
sizes = 4096
group_sizes = [2, 8]
interval = "5ms"
)",
                                          "m.toml");
  const MulticastConfig& m = s.protocol.workload.multicast;
  CHECK(s.protocol.workload.kind == WorkloadKind::Multicast);
  CHECK(m.algorithms == std::vector<std::string>{"binomial", "topology"});
  CHECK(m.sizes == std::vector<std::uint64_t>{4096});
  CHECK(m.group_sizes == std::vector<int>{2, 8});
  CHECK(m.interval == 5 * kNsPerMs);
  CHECK(m.repeats == 10);
  CHECK(m.master == -1);
  CHECK(m.binomial_max_bytes == 8192);
  CHECK(m.pipeline_min_bytes == 2097152);
  CHECK(m.segment_bytes == 0);
  const Scenario set =
      load_scenario_string(kHead +
                               "algorithms = \"pipeline\"\ngroup_sizes = [2, 8]\nsegment_bytes = "
                               "16384\npipeline_min_bytes = 0\n",
                           "m.toml");
  CHECK(set.protocol.workload.multicast.segment_bytes == 16384);
  CHECK(set.protocol.workload.multicast.pipeline_min_bytes == 0);
}

TEST_CASE("multicast scenario: mistakes name the line and the fix") {
  auto [line, what] = failure_of("group_sizes = [2, 9]\n");
  CHECK(line == 8);
  CHECK_THAT(what, Contains("this run has 8") && Contains("drop 9"));
  std::tie(line, what) = failure_of("algorithms = [\"binomial\", \"fastest\"]\n");
  CHECK(line == 8);
  CHECK_THAT(what, Contains("unknown multicast algorithm \"fastest\""));
  std::tie(line, what) = failure_of("sizes = [1024, \"8MB\"]\n");
  CHECK(line == 8);
  CHECK_THAT(what, Contains("must list integers"));
  std::tie(line, what) = failure_of("sizes = []\n");
  CHECK_THAT(what, Contains("empty list"));
  std::tie(line, what) = failure_of("groups = \"every\"\n");
  CHECK_THAT(what, Contains("strided"));
  std::tie(line, what) = failure_of("master = 9\n");
  CHECK_THAT(what, Contains("-1 means the last rank"));
  std::tie(line, what) = failure_of("trim = 0.5\n");
  CHECK(line == 8);
  std::tie(line, what) = failure_of("segment_bytes = 100\n");
  CHECK(line == 8);
  CHECK_THAT(what, Contains("0 (automatic) or at least 4096"));
  std::tie(line, what) = failure_of("group_size = 4\n");
  CHECK_THAT(what, Contains("group_size"));
}
