// `tsunagi calibrate`: ping-pong size sweeps on realnet (docs/calibration.md), fitted to host
// costs ([protocol.costs]) and network factors ([network.factors]) written as a costs file
// for `tsunagi run --costs FILE` on SimGrid and ns-3.
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "calibrate_report.hpp"
#include "calibrate_runs.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "tsunagi/scenarios/loader.hpp"

namespace tsunagi::app {
namespace {

namespace fs = std::filesystem;

// Sizes unlike the checked ping-pong sweep's (1 B, 1 KiB, 64 KiB, 1 MiB, 4 MiB:
// docs/calibration.md).
const std::vector<std::uint64_t> kSizes = {16, 512, 8192, 131072, 524288, 2097152};
const std::vector<std::uint64_t> kQuickSizes = {16, 8192, 131072};

// One path of the sweep: a scenario of scenarios/calibrate/ on one realnet network.
struct SweepPath {
  std::string scenario;  // file name under scenarios/calibrate/
  std::string net;
};

std::vector<SweepPath> paths_for(const std::string& net) {
  // Loopback (no links) pins the host's own costs; two namespace paths of 2 and 6 links
  // separate each link's cost from them.
  if (net == "loopback") return {{"pair.toml", "loopback"}};
  return {{"pair.toml", "loopback"}, {"pair.toml", "netns"}, {"chain.toml", "netns"}};
}

// scenarios/calibrate next to this program: the build tree (build/app/tsunagi) or an
// installation (bin/tsunagi, share/tsunagi/scenarios).
std::string find_scenarios(const std::string& given) {
  if (!given.empty()) return given;
  const fs::path bin = fs::path(own_program()).parent_path();
  for (const fs::path& dir :
       {bin / "../../scenarios/calibrate", bin / "../share/tsunagi/scenarios/calibrate"}) {
    if (fs::exists(dir / "pair.toml")) return fs::weakly_canonical(dir).string();
  }
  throw std::runtime_error("cannot find scenarios/calibrate — give --scenarios DIR");
}

std::string load_average() {
  std::ifstream file("/proc/loadavg");
  std::string one, five, fifteen;
  file >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
  return text;
}

// The point of one run: its one-way time and the nominal figures of the path it crossed.
CalibrationPoint point_of(const SweepPath& path, const PathFigures& figures,
                          const PingPongResult& result, std::uint64_t bytes) {
  CalibrationPoint p;
  p.bytes = bytes;
  p.one_way_s = result.median_round_trip_s / 2;
  if (path.net == "loopback") return p;  // one host: no links, no nominal figures
  p.links = figures.links;
  p.latency_s = static_cast<double>(figures.latency) / 1e9 * result.latency_scale;
  p.byte_time_s = 1 / figures.rate;
  return p;
}

std::vector<LabelledPoint> measure(const CalibrateOptions& options, const std::string& dir,
                                   const fs::path& work) {
  const std::vector<std::uint64_t>& sizes = options.quick ? kQuickSizes : kSizes;
  const int rounds = options.quick ? 4 : 10;
  const std::string program = own_program();
  std::vector<LabelledPoint> points;
  for (const SweepPath& path : paths_for(options.net)) {
    const std::string file = dir + "/" + path.scenario;
    const PathFigures figures = pingpong_path(scenario::load_scenario_file(file));
    const std::string label = fs::path(path.scenario).stem().string() + " " + path.net;
    for (std::uint64_t bytes : sizes) {
      const std::string out = (work / (fs::path(path.scenario).stem().string() + "-" + path.net +
                                       "-" + std::to_string(bytes)))
                                  .string();
      const PingPongResult result = run_pingpong(program, {file, path.net, bytes, rounds, out});
      std::cerr << "calibrate: " << label << " " << bytes << " B: round trip "
                << result.median_round_trip_s * 1e6 << " us (median of " << rounds - 1 << ")\n";
      points.push_back({label, point_of(path, figures, result, bytes)});
    }
  }
  return points;
}

int calibrate(const CalibrateOptions& options, const fs::path& work) {
  const std::string dir = find_scenarios(options.scenarios);
  const std::string load_before = load_average();
  const std::vector<LabelledPoint> points = measure(options, dir, work);
  std::vector<CalibrationPoint> plain;
  for (const LabelledPoint& p : points) plain.push_back(p.point);
  const CalibrationFit fit = fit_calibration(plain);
  const CostsFile costs = costs_of(fit);
  char host[256] = "?";
  gethostname(host, sizeof host - 1);
  std::cout << "calibrate on " << host << ", " << utc_now() << ", load average " << load_before
            << " before, " << load_average() << " after\n";
  print_fit(std::cout, fit, points, costs);
  std::vector<std::string> header = {
      "Written by `tsunagi calibrate --net " + options.net + "` on " + host + ", " + utc_now() +
          " (docs/calibration.md).",
      "Load average " + load_before + " before the runs. Use: tsunagi run SCENARIO --costs FILE",
      "send/receive overhead: halves of one fitted per-message overhead (a ping-pong cannot "
      "split them)."};
  for (const std::string& held : fit.held) header.push_back("held: " + held);
  std::ofstream out(options.out);
  out << costs_toml(costs, header);
  if (!out) throw std::runtime_error("cannot write " + options.out);
  std::cout << "wrote " << options.out << "\n";
  return kExitOk;
}

}  // namespace

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options) {
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Measure realnet ping-pongs and fit host costs and network factors into a costs file "
      "for tsunagi run --costs (docs/calibration.md)");
  cmd->add_option("--net", options.net,
                  "netns (root: the namespaces' links and the host; default) or loopback (the "
                  "host's costs only)")
      ->check(CLI::IsMember({"netns", "loopback"}));
  cmd->add_option("--out", options.out, "The costs file to write (default costs.toml)")
      ->type_name("FILE");
  cmd->add_option("--keep", options.keep, "Keep every run's output under DIR (default: removed)")
      ->type_name("DIR");
  cmd->add_option("--scenarios", options.scenarios,
                  "Where pair.toml and chain.toml are (default: scenarios/calibrate by this "
                  "program)")
      ->type_name("DIR");
  cmd->add_flag("--quick", options.quick, "Three sizes and 4 rounds each (for tests)");
  return cmd;
}

int calibrate_command(const CalibrateOptions& options) {
  if (options.net == "netns" && geteuid() != 0) {
    std::cerr << "tsunagi calibrate: --net netns needs root (network namespaces); run as root "
                 "or use --net loopback\n";
    return kExitBadInput;
  }
  fs::path work = options.keep;
  try {
    if (work.empty()) {
      std::string pattern = (fs::temp_directory_path() / "tsunagi-calibrate-XXXXXX").string();
      if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("cannot make a work dir");
      work = pattern;
    } else {
      fs::create_directories(work);
    }
    const int status = calibrate(options, work);
    if (options.keep.empty()) fs::remove_all(work);
    return status;
  } catch (const std::exception& error) {
    std::cerr << "tsunagi calibrate: " << error.what() << "\n";
    // A failed run's log is the evidence: keep the work dir and say where it is.
    if (!work.empty()) std::cerr << "tsunagi calibrate: the runs are in " << work.string() << "\n";
    return kExitFailed;
  }
}

}  // namespace tsunagi::app
