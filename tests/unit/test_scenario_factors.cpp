// [network.factors] (docs/calibration.md): defaults, good values, and bad ones with file:line.
// Each document below starts on line 1 right after R"( so line numbers can be read off.
#include <catch2/catch.hpp>

#include "scenario_failure.hpp"
#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi::scenario;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// Line 3 is [network.factors]; each test appends its key on line 4.
const std::string kHead = R"(name = "f"
[network]
[network.factors]
)";
const std::string kTail = R"(
[[network.switch]]
name = "s"
hosts = 2
)";

}  // namespace

TEST_CASE("network factors: defaults change nothing, values are read", "[scenario][factors]") {
  const Scenario plain = load_scenario_string("[network]" + kTail, "plain.toml");
  CHECK(plain.network.factors == NetworkFactors{});
  CHECK(factored_latency(plain.network.factors, 5000) == 5000);
  CHECK(factored_bandwidth(plain.network.factors, 125e6) == 125e6);
  const Scenario f = load_scenario_string(
      kHead + "bandwidth = 0.5\nlatency_per_link = \"40us\"\nlatency_scale = 50\n" + kTail,
      "f.toml");
  CHECK(f.network.factors.bandwidth == 0.5);
  CHECK(f.network.factors.latency_per_link == 40000);
  // Scaled first, then the per-link cost: 5 us x 50 + 40 us.
  CHECK(factored_latency(f.network.factors, 5000) == 290000);
  CHECK(factored_bandwidth(f.network.factors, 125e6) == 62.5e6);
}

TEST_CASE("network factors: bad values name file and line", "[scenario][factors]") {
  const auto f = tsunagi::test::scenario_failure(kHead + "bandwidth = 0\n" + kTail, "bad.toml");
  CHECK(f.line == 4);
  CHECK_THAT(f.what, StartsWith("bad.toml:4:"));
  CHECK_THAT(f.what, Contains("network.factors.bandwidth"));
  const auto g = tsunagi::test::scenario_failure(kHead + "bandwidth = 1.5\n" + kTail, "bad.toml");
  CHECK(g.line == 4);
  const auto h =
      tsunagi::test::scenario_failure(kHead + "latency_per_link = 5\n" + kTail, "bad.toml");
  CHECK(h.line == 4);
  CHECK_THAT(h.what, Contains("latency_per_link"));
  const auto u = tsunagi::test::scenario_failure(kHead + "bandwith = 0.5\n" + kTail, "bad.toml");
  CHECK(u.line == 4);
  CHECK_THAT(u.what, Contains("did you mean 'bandwidth'?"));
}
