// Loading a scenario that must fail: where the loader said it failed (line, message). Shared by
// the scenario error tests so that each states only its documents and expectations.
#pragma once

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::test {

struct ScenarioFailure {
  int line = -1;
  std::string what;
};

// Loads `text` as file `file`; fails the test if it loads. Errors in a --set value name the
// override (line 0); every other error must name the file.
inline ScenarioFailure scenario_failure(const std::string& text, const std::string& file,
                                        const std::vector<std::string>& overrides = {}) {
  try {
    scenario::load_scenario_string(text, file, overrides);
  } catch (const scenario::ScenarioError& e) {
    if (e.line() > 0) CHECK(e.file() == file);
    return {e.line(), e.what()};
  }
  FAIL("loaded without error");
  return {};
}

}  // namespace tsunagi::test
