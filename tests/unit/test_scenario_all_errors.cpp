// Issue 33: every independent error of a scenario file at once, in file order, capped; errors
// that could follow from an earlier one (a refused value read as its default) are left out.
// Each document starts on line 1 right after R"( so line numbers can be read off.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tsunagi/scenarios/loader.hpp"

using namespace tsunagi::scenario;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;

namespace {

struct Errors {
  std::vector<ScenarioError> list;
  std::string what;
};

Errors errors_of(const std::string& text) {
  try {
    load_scenario_string(text, "bad.toml");
  } catch (const ScenarioErrors& e) {
    return {e.errors(), e.what()};
  } catch (const ScenarioError& e) {
    return {{e}, e.what()};
  }
  FAIL("loaded without error");
  return {};
}

std::vector<int> lines_of(const Errors& errors) {
  std::vector<int> lines;
  for (const ScenarioError& e : errors.list) lines.push_back(e.line());
  return lines;
}

}  // namespace

TEST_CASE("all errors: independent mistakes in several tables, in file order",
          "[scenario][errors]") {
  const Errors e = errors_of(R"(name = "bad"
seed = "7"
[network]
[[network.switch]]
name = "core"
hosts = 4
host_bandwidth = "1Gbs"
host_latency = 5
[simgrid]
network_model = "LV09"
[protocol]
shortcut_capacity = -1
)");
  CHECK(lines_of(e) == std::vector<int>{2, 7, 8, 10, 12});
  CHECK(e.list.front().line() == 2);  // the first is also the error's own position
  const std::string expected =
      "bad.toml:2:8: seed must be an integer, not a string (\"7\") — write seed = 1 (no quotes)\n"
      "bad.toml:7:18: network.switch[0].host_bandwidth = \"1Gbs\" is not a bandwidth";
  CHECK(e.what.substr(0, expected.size()) == expected);
  CHECK_THAT(e.what, Contains("\nbad.toml:8:16: network.switch[0].host_latency has no unit"));
  CHECK_THAT(e.what, Contains("\nbad.toml:10:17: unknown SimGrid network model \"LV09\""));
  CHECK_THAT(e.what, Contains("\nbad.toml:12:21: protocol.shortcut_capacity cannot be negative"));
}

TEST_CASE("all errors: no error that a refused value may have caused", "[scenario][errors]") {
  // hosts = "2" is refused and read as its default (0): the network then has no hosts and
  // processes = 2 no slots. Neither is said: both go away with the fix of line 5.
  const Errors e = errors_of(R"(name = "bad"
[network]
[[network.switch]]
name = "core"
hosts = "2"
[placement]
processes = 2
)");
  CHECK(lines_of(e) == std::vector<int>{5});
  CHECK_THAT(e.what, Contains("hosts must be an integer"));
}

TEST_CASE("all errors: unknown keys together, before any value", "[scenario][errors]") {
  const Errors e = errors_of(R"(name = "bad"
seed = "x"
[network]
[[network.switch]]
name = "core"
hots = 4
[protocol]
shortcut_capacty = 2
)");
  // The misspelt keys' values would be read as defaults: seed is not read yet.
  CHECK(lines_of(e) == std::vector<int>{6, 8});
  CHECK_THAT(e.what, Contains("did you mean 'hosts'?"));
  CHECK_THAT(e.what, Contains("did you mean 'shortcut_capacity'?"));
}

TEST_CASE("all errors: a TOML syntax error is the only one", "[scenario][errors]") {
  const Errors e = errors_of("seed = \"x\"\nname = \n[network]\nhots = 1\n");
  CHECK(lines_of(e) == std::vector<int>{2});
  CHECK_THAT(e.what, Contains("not valid TOML"));
}

TEST_CASE("all errors: at most 20 listed, the rest counted", "[scenario][errors]") {
  std::string text = "name = \"bad\"\n[network]\n";
  for (int i = 0; i < 25; ++i) {
    text += "[[network.switch]]\nname = \"s" + std::to_string(i) + "\"\nhosts = \"1\"\n";
    if (i > 0) text += "parent = \"s0\"\n";
  }
  const Errors e = errors_of(text);
  CHECK(e.list.size() == 25);
  std::size_t lines = 1;
  for (char c : e.what) lines += c == '\n' ? 1 : 0;
  CHECK(lines == 21);
  CHECK_THAT(e.what, EndsWith("\n… and 5 more errors"));
}
