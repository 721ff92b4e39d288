// The fit of `tsunagi calibrate` (app/calibrate_fit.hpp): synthetic ping-pong points from known
// parameters, with noise, must give the parameters back; too few points and points that
// cannot separate a parameter must be refused or held, and said.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "calibrate_fit.hpp"
#include "tsunagi/model/rng.hpp"

using tsunagi::app::CalibrationFit;
using tsunagi::app::CalibrationPoint;
using tsunagi::app::fit_calibration;

namespace {

struct Truth {
  double o = 40e-6, d = 60e-6, g = 0.5e-9, k = 1.5;
};

const std::vector<std::uint64_t> kSizes = {16, 512, 8192, 131072, 524288, 2097152};

// One path: `links` links of 5 us x 50 each at 1 Gbit/s (links = 0: loopback), `noise` the
// relative spread of each measured time (uniform, seeded).
void add_path(std::vector<CalibrationPoint>& points, int links, const Truth& t, double noise,
              tsunagi::Rng& rng) {
  for (std::uint64_t bytes : kSizes) {
    CalibrationPoint p;
    p.bytes = bytes;
    p.links = links;
    p.latency_s = links * 250e-6;
    p.byte_time_s = links > 0 ? 8e-9 : 0;
    const auto n = static_cast<double>(bytes);
    const double exact = t.o + links * t.d + p.latency_s + n * t.g + n * t.k * p.byte_time_s;
    p.one_way_s = exact * (1 + noise * (2 * rng.uniform01() - 1));
    points.push_back(p);
  }
}

std::vector<CalibrationPoint> three_paths(const Truth& t, double noise) {
  tsunagi::Rng rng(7);
  std::vector<CalibrationPoint> points;
  for (int links : {0, 2, 6}) add_path(points, links, t, noise, rng);
  return points;
}

}  // namespace

TEST_CASE("calibrate fit: exact points give the parameters back", "[calibrate]") {
  const Truth t;
  const CalibrationFit fit = fit_calibration(three_paths(t, 0));
  CHECK(fit.overhead_s == Approx(t.o).epsilon(1e-6));
  CHECK(fit.link_latency_s == Approx(t.d).epsilon(1e-6));
  CHECK(fit.copy_byte_s == Approx(t.g).epsilon(1e-6));
  CHECK(fit.rate_factor == Approx(t.k).epsilon(1e-6));
  CHECK(fit.held.empty());
  for (double r : fit.residuals) CHECK(std::abs(r) < 1e-9);
}

TEST_CASE("calibrate fit: 2 % noise still finds the parameters", "[calibrate]") {
  const Truth t;
  const CalibrationFit fit = fit_calibration(three_paths(t, 0.02));
  CHECK(fit.overhead_s == Approx(t.o).epsilon(0.5));  // o is small beside 250 us links
  CHECK(fit.link_latency_s == Approx(t.d).epsilon(0.2));
  CHECK(fit.copy_byte_s == Approx(t.g).epsilon(0.3));
  CHECK(fit.rate_factor == Approx(t.k).epsilon(0.05));
  for (double r : fit.residuals) CHECK(std::abs(r) < 0.05);
}

TEST_CASE("calibrate fit: loopback alone holds the network factors", "[calibrate]") {
  tsunagi::Rng rng(1);
  std::vector<CalibrationPoint> points;
  add_path(points, 0, Truth{}, 0, rng);
  const CalibrationFit fit = fit_calibration(points);
  CHECK(fit.link_latency_s == 0);
  CHECK(fit.rate_factor == 1);
  CHECK(fit.overhead_s == Approx(40e-6));
  REQUIRE(fit.held.size() == 1);
  CHECK(fit.held[0].find("latency_per_link = 0") != std::string::npos);
}

TEST_CASE("calibrate fit: zero slope gives free copies, not a failure", "[calibrate]") {
  Truth t;
  t.g = 0;
  tsunagi::Rng rng(1);
  std::vector<CalibrationPoint> points;
  add_path(points, 0, t, 0, rng);
  const CalibrationFit fit = fit_calibration(points);
  CHECK(std::abs(fit.copy_byte_s) < 1e-18);
}

TEST_CASE("calibrate fit: a negative slope is clamped and said", "[calibrate]") {
  std::vector<CalibrationPoint> points;
  for (std::uint64_t bytes : kSizes)
    points.push_back({bytes, 100e-6 - static_cast<double>(bytes) * 1e-12, 0, 0, 0});
  const CalibrationFit fit = fit_calibration(points);
  CHECK(fit.copy_byte_s == 0);
  REQUIRE(fit.held.size() == 2);
  CHECK(fit.held[1].find("copy cost fitted below its bound") != std::string::npos);
}

TEST_CASE("calibrate fit: too few or inseparable points are refused", "[calibrate]") {
  CHECK_THROWS_WITH(fit_calibration({{16, 1e-4, 0, 0, 0}}), Catch::Contains("too few points"));
  CHECK_THROWS_WITH(fit_calibration({}), Catch::Contains("too few points"));
  // Two sizes of one path, but the same size twice: the per-byte column repeats the constant.
  CHECK_THROWS_WITH(fit_calibration({{512, 1e-4, 0, 0, 0}, {512, 1.1e-4, 0, 0, 0}}),
                    Catch::Contains("cannot separate"));
  CHECK_THROWS_WITH(fit_calibration({{512, 0, 0, 0, 0}, {1024, 1e-4, 0, 0, 0}}),
                    Catch::Contains("not positive"));
}

TEST_CASE("calibrate fit: one path length holds the per-link latency", "[calibrate]") {
  tsunagi::Rng rng(1);
  std::vector<CalibrationPoint> points;
  add_path(points, 0, Truth{}, 0, rng);
  add_path(points, 2, Truth{}, 0, rng);
  // 0 and 2 links are two lengths: everything is free.
  CHECK(fit_calibration(points).held.empty());
  std::vector<CalibrationPoint> netns;
  add_path(netns, 2, Truth{}, 0, rng);
  const CalibrationFit fit = fit_calibration(netns);
  CHECK(fit.link_latency_s == 0);
  CHECK(fit.copy_byte_s == 0);  // no loopback and one rate: per-byte cost is the network's
  CHECK(fit.held.size() == 2);
}
