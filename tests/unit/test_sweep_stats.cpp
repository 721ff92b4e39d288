// `tsunagi sweep`'s statistics over seeds (mean, sd, Student-t 95 % interval) and summary.csv,
// where runs that failed are counted, never averaged in (docs/cli.md, "tsunagi sweep").
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

// The sweep's pure files are compiled into the unit test binary too (tests/CMakeLists.txt).
#include "sweep_range.hpp"
#include "sweep_results.hpp"
#include "sweep_stats.hpp"
#include "sweep_summary.hpp"

using tsunagi::app::sweep::describe;
using tsunagi::app::sweep::figure_number;
using tsunagi::app::sweep::Stats;
using tsunagi::app::sweep::summary_csv;
using tsunagi::app::sweep::SummaryRun;
using tsunagi::app::sweep::t_quantile_95;

TEST_CASE("the t quantile matches a table of known values", "[sweep][stats]") {
  struct Row {
    std::size_t df;
    double t;  // t(0.975, df), from mpmath at 30 digits; textbook tables print them to 3 places
  };
  const Row rows[] = {
      {1, 12.7062047361747},   {2, 4.302652729749464},   {3, 3.18244630528371},
      {4, 2.776445105197794},  {9, 2.262157162798206},   {29, 2.045229642132704},
      {30, 2.042272456301238}, {31, 2.039513446396408},  {40, 2.021075390306273},
      {60, 2.000297822014261}, {120, 1.979930405082441}, {1000, 1.962339080826408},
  };
  for (const Row& row : rows) {
    INFO("df " << row.df);
    CHECK(t_quantile_95(row.df) == Approx(row.t).margin(1e-6));
  }
  CHECK(t_quantile_95(1000000) == Approx(1.959963984540054).margin(1e-6));
}

TEST_CASE("mean, sd and the 95 % interval for n = 1, 2, 5, 30", "[sweep][stats]") {
  struct Row {
    std::vector<double> values;
    double mean;
    std::optional<double> sd, low, high;  // none for n = 1
  };
  std::vector<double> thirty;
  for (int i = 1; i <= 30; ++i) thirty.push_back(i);
  const Row rows[] = {
      {{5}, 5, std::nullopt, std::nullopt, std::nullopt},
      {{1, 3}, 2, std::sqrt(2.0), -10.7062047361747, 14.7062047361747},
      {{1, 2, 3, 4, 5}, 3, std::sqrt(2.5), 1.0367568385224428, 4.963243161477557},
      {thirty, 15.5, std::sqrt(77.5), 12.212753267540267, 18.78724673245973},
      {{1e12 + 1, 1e12 + 2, 1e12 + 3},
       1e12 + 2,
       1,
       1e12 + 2 - 4.302652729749464 / std::sqrt(3.0),
       1e12 + 2 + 4.302652729749464 / std::sqrt(3.0)},
  };
  for (const Row& row : rows) {
    INFO("n " << row.values.size() << ", first " << row.values.front());
    const Stats stats = describe(row.values);
    CHECK(stats.n == row.values.size());
    REQUIRE(stats.mean);
    CHECK(*stats.mean == Approx(row.mean).epsilon(1e-12));
    REQUIRE(stats.sd.has_value() == row.sd.has_value());
    REQUIRE(stats.ci95_low.has_value() == row.low.has_value());
    REQUIRE(stats.ci95_high.has_value() == row.high.has_value());
    if (!row.sd) continue;
    CHECK(*stats.sd == Approx(*row.sd).epsilon(1e-12));
    CHECK(*stats.ci95_low == Approx(*row.low).epsilon(1e-12));
    CHECK(*stats.ci95_high == Approx(*row.high).epsilon(1e-12));
  }
}

TEST_CASE("constant values have sd 0 and an empty-width interval, exactly", "[sweep][stats]") {
  for (const double value : {0.1, 21117896.0, -3.5, 0.0}) {
    INFO(value);
    const Stats stats = describe(std::vector<double>(7, value));
    CHECK(*stats.mean == value);
    CHECK(*stats.sd == 0);
    CHECK(*stats.ci95_low == value);
    CHECK(*stats.ci95_high == value);
  }
  const Stats none = describe({});
  CHECK(none.n == 0);
  CHECK_FALSE(none.mean);
}

TEST_CASE("figures are numbers or booleans", "[sweep][stats]") {
  const nlohmann::json values = {{"n", 3},   {"x", 2.5},    {"b", true},   {"f", false},
                                 {"s", "3"}, {"a", {1, 2}}, {"z", nullptr}};
  CHECK(figure_number(&values["n"]) == 3.0);
  CHECK(figure_number(&values["x"]) == 2.5);
  CHECK(figure_number(&values["b"]) == 1.0);
  CHECK(figure_number(&values["f"]) == 0.0);
  for (const char* key : {"s", "a", "z"}) CHECK_FALSE(figure_number(&values[key]));
  CHECK_FALSE(figure_number(nullptr));
}

TEST_CASE("summary.csv: a row per point, failed runs counted and not averaged", "[sweep][stats]") {
  const auto run = [](std::string point, bool ok, std::optional<double> figure) {
    return SummaryRun{{std::move(point)}, ok, {figure, std::nullopt}};
  };
  const std::vector<SummaryRun> runs = {
      run("1", true, 10), run("1", true, 12),
      run("2", true, 20), run("2", false, 1000),  // a failed run's figure is left out
      run("2", true, 22), run("3", false, std::nullopt),
      run("4", true, 7),
  };
  const std::string csv = summary_csv({"rounds"}, {"makespan", "name"}, runs);
  const double half2 = 12.7062047361747;  // t(1) * sd (sqrt 2) / sqrt(2)
  CHECK(csv ==
        "rounds,runs,failed,makespan.mean,makespan.sd,makespan.n,makespan.ci95_low,"
        "makespan.ci95_high\n"
        "1,2,0,11,1.4142135623731,2," +
            tsunagi::app::sweep::format_decimal(11 - half2) + "," +
            tsunagi::app::sweep::format_decimal(11 + half2) +
            "\n"
            "2,3,1,21,1.4142135623731,2," +
            tsunagi::app::sweep::format_decimal(21 - half2) + "," +
            tsunagi::app::sweep::format_decimal(21 + half2) +
            "\n"
            "3,1,1,,,0,,\n"
            "4,1,0,7,,1,,\n");
}

TEST_CASE("sweep csv: a result's figures as result.json has them", "[sweep]") {
  using tsunagi::app::sweep::csv_text;
  // Each double in its shortest round-trip text (Python's json, pandas): nlohmann's dump gave
  // 0.0057349260000000004 for 0.005734926, and cli:sweep compared it with result.json.
  for (const double v : {0.005734926, 0.1, 1.5e-7, 123456.789, 2.0, -0.30000000000000004}) {
    const nlohmann::json value = v;
    const std::string text = csv_text(&value);
    CAPTURE(v, text);
    CHECK(std::stod(text) == v);
    CHECK(text.size() <= value.dump().size());
  }
  const nlohmann::json small = 0.005734926;
  CHECK(csv_text(&small) == "0.005734926");
  const nlohmann::json integer = 42;
  CHECK(csv_text(&integer) == "42");
  const nlohmann::json word = "ok";
  CHECK(csv_text(&word) == "ok");
  CHECK(csv_text(nullptr).empty());
}
