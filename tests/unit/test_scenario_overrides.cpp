// `--set dotted.key=value` overrides: applied before validation, any key, unknown keys refused.
#include <catch2/catch.hpp>

#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;
using Catch::Matchers::Contains;

namespace {

// No [workload.intsort] and no [protocol.inference]: overrides must create them.
const char* const kBase = R"(name = "base"
seed = 5
[network]
[[network.switch]]
name = "core"
[[network.switch]]
name = "edge1"
parent = "core"
hosts = 2
[[network.switch]]
name = "edge2"
parent = "core"
hosts = 2
[protocol]
plan = "topology"
)";

Scenario with(const std::vector<std::string>& overrides) {
  return load_scenario_string(kBase, "base.toml", overrides);
}

std::string error_of(const std::vector<std::string>& overrides) {
  try {
    with(overrides);
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("overrides: integers, floats, booleans and strings", "[scenario][overrides]") {
  Scenario s = with({"seed=7", "protocol.shortcut_capacity=3", "protocol.plan=random",
                     "protocol.trace_full_routes=false", "description=two words",
                     "network.loopback_bandwidth=1GBps", "protocol.connect_timeout=250ms"});
  CHECK(s.seed == 7);
  CHECK(s.protocol.seed == 7);
  CHECK(s.protocol.overlay.shortcut_capacity == 3);
  CHECK(s.protocol.overlay.plan == PlanKind::RandomK);  // a bare word is a string
  CHECK_FALSE(s.protocol.overlay.trace_full_routes);
  CHECK(s.description == "two words");
  CHECK(s.network.loopback_bandwidth == Approx(1e9));
  CHECK(s.protocol.overlay.connect_timeout == 250 * kNsPerMs);
  CHECK(with({"name=\"quoted\""}).name == "quoted");
  CHECK(with({"simgrid.host_speed=2.4e9"}).simgrid.host_speed == Approx(2.4e9));
}

TEST_CASE("overrides: nested tables are created when the file lacks them",
          "[scenario][overrides]") {
  Scenario s = with({"workload.kind=intsort", "workload.intsort.iterations=3",
                     "protocol.inference.min_jump_ratio=0.5", "placement.procs_per_host=2"});
  CHECK(s.protocol.workload.kind == WorkloadKind::IntSort);
  CHECK(s.protocol.workload.intsort.iterations == 3);
  CHECK(s.protocol.workload.intsort.max_key == IntSortConfig{}.max_key);  // others default
  CHECK(s.protocol.inference.min_jump_ratio == Approx(0.5));
  CHECK(s.protocol.processes == 8);
  // A whole table as an inline table.
  Scenario t = with({"workload.pingpong={ rounds = 4, message_bytes = 1024 }"});
  CHECK(t.protocol.workload.pingpong.rounds == 4);
  CHECK(t.protocol.workload.pingpong.message_bytes == 1024u);
}

TEST_CASE("overrides: array entries by index or by name", "[scenario][overrides]") {
  CHECK(with({"network.switch.1.hosts=5"}).protocol.processes == 7);
  CHECK(with({"network.switch[2].hosts=6"}).protocol.processes == 8);
  CHECK(with({"network.switch.edge2.host_latency=1ms"}).network.switches[2].host_latency ==
        kNsPerMs);
  // Later overrides win.
  CHECK(with({"seed=1", "seed=2"}).seed == 2);
}

TEST_CASE("overrides: unknown keys list the valid keys at that level", "[scenario][overrides]") {
  std::string e = error_of({"protocol.shortcut_capcity=4"});
  CHECK_THAT(e, Contains("--set protocol.shortcut_capcity=4: unknown key 'shortcut_capcity' in "
                         "[protocol]"));
  CHECK_THAT(e, Contains("did you mean 'shortcut_capacity'"));
  CHECK_THAT(e, Contains("valid keys there: plan, routing, random_k, shortcut_capacity"));
  CHECK_THAT(error_of({"workload.intsort.keys=4"}),
             Contains("valid keys there: total_keys, max_key, iterations, compute_ns_per_key"));
  CHECK_THAT(error_of({"bogus=1"}), Contains("unknown key 'bogus' in the top level"));
  CHECK_THAT(error_of({"network.switch.0.nme=x"}), Contains("in [[network.switch]]"));
}

TEST_CASE("overrides: bad overrides name the override", "[scenario][overrides]") {
  SECTION("wrong type") {
    std::string e = error_of({"placement.procs_per_host=two"});
    CHECK_THAT(e, Contains("--set placement.procs_per_host=two: placement.procs_per_host must be "
                           "an integer, not a string (\"two\")"));
  }
  SECTION("bad unit") {
    CHECK_THAT(error_of({"protocol.connect_timeout=3"}), Contains("has no unit"));
  }
  SECTION("no equals sign") {
    CHECK_THAT(error_of({"seed"}), Contains("--set seed: expected dotted.key=value"));
  }
  SECTION("index out of range") {
    CHECK_THAT(error_of({"network.switch.3.hosts=1"}),
               Contains("network.switch has 3 entries, numbered 0 to 2"));
  }
  SECTION("unknown switch name") {
    CHECK_THAT(error_of({"network.switch.edge9.hosts=1"}), Contains("a name: core, edge1, edge2"));
  }
  SECTION("path through a value") {
    CHECK_THAT(error_of({"seed.x=1"}), Contains("'seed' is a single value"));
  }
  SECTION("table given a value") {
    CHECK_THAT(error_of({"protocol=1"}), Contains("protocol must be a table"));
  }
  SECTION("the error has no line number") {
    try {
      with({"seed=-3"});
      FAIL("no error");
    } catch (const ScenarioError& e) {
      CHECK(e.file() == "--set seed=-3");
      CHECK(e.line() == 0);
      CHECK_THAT(e.message(), Contains("seed cannot be negative"));
    }
  }
}
