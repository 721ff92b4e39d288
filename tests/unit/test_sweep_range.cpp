// `tsunagi sweep`'s SPEC grammar: every range form, decimal steps without float noise, and the
// messages of bad specs (docs/cli.md, "tsunagi sweep").
#include <catch2/catch.hpp>

#include <string>
#include <vector>

// The sweep's pure files are compiled into the unit test binary too (tests/CMakeLists.txt).
#include "sweep_range.hpp"
#include "sweep_spec.hpp"

using tsunagi::app::sweep::Axis;
using tsunagi::app::sweep::format_decimal;
using tsunagi::app::sweep::make_grid;
using tsunagi::app::sweep::parse_set;
using tsunagi::app::sweep::SpecError;
using Values = std::vector<std::string>;

TEST_CASE("every SPEC form expands to its values", "[sweep][range]") {
  struct Row {
    const char* spec;
    Values values;
  };
  const Row rows[] = {
      {"7", {"7"}},
      {"5us", {"5us"}},  // a value with a unit passes through untouched
      {"0..3", {"0", "1", "2", "3"}},
      {"-2..2:2", {"-2", "0", "2"}},
      {"+1..3", {"1", "2", "3"}},
      {"0..16:5", {"0", "5", "10", "15"}},
      {"4..4", {"4"}},
      {"1..1024:x2", {"1", "2", "4", "8", "16", "32", "64", "128", "256", "512", "1024"}},
      {"1..1000:x10", {"1", "10", "100", "1000"}},
      {"3..100:x3", {"3", "9", "27", "81"}},
      {"0.1..0.5:0.1", {"0.1", "0.2", "0.3", "0.4", "0.5"}},
      {"0..1:0.25", {"0", "0.25", "0.5", "0.75", "1"}},
      {"0.1..0.35:0.1", {"0.1", "0.2", "0.3"}},
      {"1.5..3", {"1.5", "2.5"}},
      {"-0.2..0.2:0.1", {"-0.2", "-0.1", "0", "0.1", "0.2"}},
      {"-0.3..0.3:0.1", {"-0.3", "-0.2", "-0.1", "0", "0.1", "0.2", "0.3"}},
      {"1e-3..3e-3:1e-3", {"0.001", "0.002", "0.003"}},
      {"0.5..4:x2", {"0.5", "1", "2", "4"}},
      {"1..10:x1.5", {"1", "1.5", "2.25", "3.375", "5.0625", "7.59375"}},
      {"0.1..0.1000001:0.1", {"0.1"}},
      {"0,2..4,8", {"0", "2", "3", "4", "8"}},
      {"[1,2]", {"[1,2]"}},
      {"[2],[2,4]", {"[2]", "[2,4]"}},
      {"../file.toml", {"../file.toml"}},
      {"\"0..4\"", {"\"0..4\""}},
  };
  for (const Row& row : rows) {
    INFO(row.spec);
    CHECK(parse_set(std::string("k=") + row.spec).values == row.values);
  }
}

TEST_CASE("decimal steps print without float noise", "[sweep][range]") {
  // 0.1 + 2 * 0.1 is 0.30000000000000004 as a double.
  CHECK(format_decimal(0.1 + 2 * 0.1) == "0.3");
  CHECK(format_decimal(0.7 + 0.1) == "0.8");
  CHECK(format_decimal(1e-7) == "1e-07");
  CHECK(format_decimal(2.0) == "2");
  CHECK(format_decimal(-0.0) == "0");
  const Values values = parse_set("k=0..3:0.1").values;
  REQUIRE(values.size() == 31);
  for (std::size_t k = 0; k < values.size(); ++k) {
    INFO(values[k]);
    CHECK(values[k].size() <= 3);  // "0", "0.1", ..., "2.9", "3": never 17 digits
  }
  CHECK(values.back() == "3");  // 0 + 30 * 0.1 = 3.0000000000000004, within step/1e6 of 3
}

TEST_CASE("bad specs name the spec and the fix", "[sweep][range]") {
  struct Row {
    const char* set;
    const char* message;  // a part of what()
  };
  const Row rows[] = {
      {"k=0..x", "--set k=0..x: bad range '0..x': end 'x' is not a number"},
      {"k=1us..5us", "start '1us' is not a number"},
      {"k=1us..5us", "values with units are listed, not ranged: 1us,2us,5us"},
      {"k=5..1", "bad range '5..1': the start is greater than the end"},
      {"k=0..16:0", "step 0 never reaches the end — give a STEP above 0"},
      {"k=0..16:-2", "step -2 never reaches the end"},
      {"k=0..1:0.0", "step 0.0 never reaches the end"},
      {"k=0..4:", "no STEP after ':'"},
      {"k=1..1024:x0", "bad range '1..1024:x0': x0 is not a ratio above 1"},
      {"k=1..1024:x1", "x1 is not a ratio above 1 — a geometric range A..B:xR multiplies by R > 1"},
      {"k=1..1024:x0.5", "x0.5 is not a ratio above 1"},
      {"k=1..1024:xx", "ratio 'x' is not a number"},
      {"k=0..1024:x2", "a geometric range starts above 0"},
      {"k=0..1000000", "range '0..1000000' has 1000001 values, more than a sweep runs (100000)"},
      {"k=0..1:1e-6", "range '0..1:1e-6' has 1000001 values"},
      {"k=1..2:x1.000001", "values, more than a sweep runs (100000)"},
      {"k=1..1.00000000001:1e-15", "the step is below the precision of the values"},
      {"k=0..2,1", "value '1' is given twice"},
      {"k=0.1..0.3:0.1,0.3", "value '0.3' is given twice"},
      {"k=1,,2", "empty item in the comma list"},
      {"=3", "expected KEY=SPEC"},
  };
  for (const Row& row : rows) {
    INFO(row.set);
    try {
      parse_set(row.set);
      FAIL("no error");
    } catch (const SpecError& error) {
      CHECK_THAT(error.what(), Catch::Contains(row.message));
    }
  }
}

TEST_CASE("a grid over the point limit is refused", "[sweep][range]") {
  const std::vector<Axis> axes = {parse_set("a=1..1000"), parse_set("b=1..1000")};
  CHECK_THROWS_WITH(make_grid(axes), Catch::Contains("the grid grows past 100000 points"));
  const std::vector<Axis> small = {parse_set("a=1..8:x2"), parse_set("b=0.1..0.3:0.1")};
  const auto grid = make_grid(small);
  REQUIRE(grid.points.size() == 12);
  CHECK(grid.points[1].dir_name == "a=1,b=0.2");
}
