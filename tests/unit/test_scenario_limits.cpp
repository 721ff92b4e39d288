// Issue 17: scenario files that passed the loader and then failed at run time, wrote outside
// --out, or never finished loading (docs/security.md, docs/scenario-format.md "Limits"). Each
// is now refused with file:line and the fix. Line numbers can be read off the documents below.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "scenario_failure.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi;
using namespace tsunagi::scenario;
using Catch::Matchers::Contains;

namespace {

using Failure = tsunagi::test::ScenarioFailure;

Failure failure_of(const std::string& text) {
  return tsunagi::test::scenario_failure(text, "bad.toml");
}

// Two hosts on one switch (lines 1-5); each test appends its own lines from line 6 on.
const std::string kNet = R"([network]
[[network.switch]]
name = "core"
hosts = 2
[workload]
)";

std::string named(const std::string& name) {
  return "name = \"" + name + "\"\n" + kNet;
}

// One switch with `hosts` hosts (lines 1-4), then `more` from line 5 on.
std::string switch_with(const std::string& hosts, const std::string& more) {
  return "[network]\n[[network.switch]]\nname = \"core\"\nhosts = " + hosts + "\n" + more;
}

}  // namespace

TEST_CASE("limits: a name that is a path cannot choose the output directory", "[limits]") {
  for (const char* name : {"../../etc/cron.d/x", "/tmp/x", "..", ".", "a/b", "a\\\\b", "a\\nb"}) {
    INFO(name);
    auto f = failure_of(named(name));
    CHECK(f.line == 1);
    CHECK_THAT(f.what, Contains("cannot name the output directory"));
  }
  CHECK_NOTHROW(load_scenario_string(named("my run 2.0"), "ok.toml"));
  // A file whose stem is a plain word keeps it as the name.
  CHECK(load_scenario_string(kNet, "dir/plain.toml").name == "plain");
}

TEST_CASE("limits: a random tree too large to hold is refused before it is built", "[limits]") {
  const auto start = std::chrono::steady_clock::now();
  auto f = failure_of(R"([network.random_tree]
depth = 8
fanout = 64
)");
  CHECK(f.line == 3);
  CHECK_THAT(f.what, Contains("this random tree draws more than 100000 hosts — lower depth, fanout "
                              "or hosts_per_leaf"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  auto g = failure_of("[network.random_tree]\nhosts_per_leaf = 4096\ndepth = 3\n");
  CHECK(g.line == 3);  // depth is named before hosts_per_leaf when both are given
  CHECK_THAT(g.what, Contains("more than 100000 hosts"));
}

TEST_CASE("limits: counting a random tree matches building it", "[limits][random_tree]") {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    RandomTreeSpec spec;
    spec.seed = seed;
    const auto switches = generate_random_tree(spec);
    std::int64_t hosts = 0;
    for (const SwitchSpec& sw : switches) hosts += sw.hosts;
    const TreeSize size = random_tree_size(spec, 1'000'000, 1'000'000);
    CHECK(size.switches == static_cast<std::int64_t>(switches.size()));
    CHECK(size.hosts == hosts);
  }
}

TEST_CASE("limits: host and process counts are bounded", "[limits]") {
  auto f = failure_of("[network]\n[[network.switch]]\nname = \"core\"\nhosts = 9999998\n");
  CHECK_THAT(f.what, Contains("the network has 9999998 hosts, more than 100000"));
  auto g = failure_of(switch_with("50000", "[placement]\nprocs_per_host = 4\n"));
  CHECK(g.line == 6);
  CHECK_THAT(g.what, Contains("200000 processes are more than 100000"));
  // Many slots are fine when the processes asked for are few.
  CHECK_NOTHROW(load_scenario_string(
      switch_with("50000", "[placement]\nprocs_per_host = 4\nprocesses = 8\n"), "ok.toml"));
}

namespace {
// Sets TSUNAGI_MAX_PROCESSES for one test and unsets it after, also when a check throws.
struct MaxProcessesEnv {
  explicit MaxProcessesEnv(const char* value) { ::setenv("TSUNAGI_MAX_PROCESSES", value, 1); }
  ~MaxProcessesEnv() { ::unsetenv("TSUNAGI_MAX_PROCESSES"); }
};
}  // namespace

TEST_CASE("limits: whoever runs tsunagi may raise the process limit, a file may not", "[limits]") {
  const std::string big = switch_with("50000", "[placement]\nprocs_per_host = 4\n");
  {
    MaxProcessesEnv raised("250000");
    CHECK(load_scenario_string(big, "big.toml").placement.procs_per_host == 4);
    auto f = failure_of(switch_with("300000", ""));
    CHECK_THAT(f.what, Contains("300000 hosts, more than 250000"));
    CHECK_THAT(f.what, Contains("TSUNAGI_MAX_PROCESSES"));
  }
  CHECK_THAT(failure_of(big).what, Contains("200000 processes are more than 100000"));
  for (const char* bad : {"0", "-5", "1048577", "1e6", "lots", "100000 ", "99999999999999999999"}) {
    MaxProcessesEnv wrong(bad);
    INFO(bad);
    CHECK_THROWS_WITH(load_scenario_string(big, "big.toml"),
                      Contains("give a whole number from 1 to 1048576"));
  }
  // The file has no key that would raise its own ceiling.
  CHECK_THROWS(load_scenario_string(big, "big.toml", {"limits.max_processes=300000"}));
}

TEST_CASE("limits: counts that fail at run time are refused at load time", "[limits]") {
  auto f = failure_of(kNet + "[protocol.inference]\nrtt_samples = 2147483647\n");
  CHECK(f.line == 7);
  CHECK_THAT(f.what, Contains("rtt_samples is out of range (2147483647) — use a value from 1 to "
                              "1000"));
  auto g = failure_of(kNet + "[workload.intsort]\ntotal_keys = 4611686018427387904\n");
  CHECK(g.line == 7);
  CHECK_THAT(g.what, Contains("total_keys is out of range"));
  for (const char* table : {"pingpong", "connectivity"}) {
    auto h = failure_of(kNet + "[workload." + table + "]\nmessage_bytes = 9223372036854775807\n");
    CHECK(h.line == 7);
    CHECK_THAT(h.what, Contains("message_bytes is out of range"));
  }
}

TEST_CASE("limits: rates and times a run cannot finish with are refused", "[limits]") {
  auto f = failure_of(switch_with("2", "host_bandwidth = \"1e-300bps\"\n"));
  CHECK(f.line == 5);
  CHECK_THAT(f.what, Contains("is too slow for a run to finish — use at least \"1Kbps\""));
  auto g = failure_of(switch_with("2", "host_latency = \"100s\"\n"));
  CHECK(g.line == 5);
  CHECK_THAT(g.what, Contains("host_latency = 100 s is longer than 10 s"));
  auto h = failure_of(kNet + "[protocol]\nconnect_timeout = \"1000000s\"\n");
  CHECK(h.line == 7);
  CHECK_THAT(h.what, Contains("longer than a day"));
  auto r = failure_of("[network.random_tree]\nuplink_bandwidth = [\"1Gbps\", \"1bps\"]\n");
  CHECK(r.line == 2);
  CHECK_THAT(r.what, Contains("too slow"));
  CHECK_NOTHROW(load_scenario_string(
      switch_with("2", "host_bandwidth = \"1Kbps\"\nhost_latency = \"10s\"\n"), "ok.toml"));
}

TEST_CASE("limits: the rendezvous cannot be killed", "[limits]") {
  auto f = failure_of(kNet + "[[faults]]\nkill = \"rendezvous\"\nat = \"1s\"\n");
  CHECK(f.line == 7);
  CHECK_THAT(f.what, Contains("the rendezvous cannot be killed: every rank needs it until the run "
                              "ends — use r0..r1"));
}

TEST_CASE("limits: only regular scenario files of a sane size are read", "[limits]") {
  const auto start = std::chrono::steady_clock::now();
  try {
    load_scenario_file("/dev/zero");
    FAIL("loaded /dev/zero");
  } catch (const ScenarioError& e) {
    CHECK(std::string(e.what()) ==
          "/dev/zero: is not a regular file — give a scenario file (TOML)");
  }
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(1));
  CHECK_THROWS_WITH(load_scenario_file(std::filesystem::temp_directory_path().string()),
                    Contains("is not a regular file"));
  const auto big = std::filesystem::temp_directory_path() / "tsunagi-limits-big.toml";
  {
    std::ofstream out(big);
    out << "# padding\n" << std::string(5u << 20, '#') << "\n";
  }
  CHECK_THROWS_WITH(load_scenario_file(big.string()), Contains("is larger than 4 MiB"));
  std::filesystem::remove(big);
}
