// The subcommands of the tsunagi program: each registers its options on the CLI and runs.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace tsunagi::app {

// --costs FILE of run and sweep (issue 32): the file as a "costs-file:PATH" override, absolute
// so that realnet's daemons and sweep points read the same file from anywhere (cmd_run.cpp).
inline constexpr const char* kCostsOptionHelp =
    "Host costs from FILE (TOML with [protocol.costs] and [network.factors] only, e.g. written "
    "by tsunagi calibrate), overlaid on the scenario before any --set";
std::string costs_file_override(const std::string& file);

struct RunOptions {
  std::string scenario;  // path of the scenario file
  std::string backend = "simgrid";
  std::uint64_t seed = 0;
  CLI::Option* seed_option = nullptr;  // to tell "--seed 0" from no --seed
  std::string out;                     // empty = out/<scenario name>
  std::vector<std::string> sets;       // KEY=VALUE overrides, in order
  std::string costs;                   // --costs FILE: host costs overlaid before the --set ones
  bool quiet = false;
  std::string pcap;     // --pcap DIR: per-host packet captures (ns3 backend only)
  std::string paje;     // --paje FILE: SimGrid's Paje trace of the run (simgrid backend only)
  bool report = false;  // --report: also write DIR/report.html (tsunagi report DIR)
  CLI::App* command = nullptr;  // the run subcommand, to find which realnet options were given
};

struct CompareOptions {
  std::string dir_a;
  std::string dir_b;
  std::size_t max_differences = 10;
};

struct CollectOptions {
  std::string dir;  // a realnet run's --out directory
  bool quiet = false;
};

struct CalibrateOptions {
  std::string net = "netns";       // netns (root) or loopback
  std::string out = "costs.toml";  // the costs file
  std::string keep;                // keep the runs' outputs here; empty = a temporary dir
  std::string scenarios;           // scenarios/calibrate; empty = next to the program
  bool quick = false;              // fewer sizes and rounds (tests)
};

struct ReportOptions {
  std::string dir;
};

CLI::App* add_run_command(CLI::App& app, RunOptions& options);
int run_command(const RunOptions& options);

CLI::App* add_compare_command(CLI::App& app, CompareOptions& options);
int compare_command(const CompareOptions& options);

CLI::App* add_collect_command(CLI::App& app, CollectOptions& options);
int collect_command(const CollectOptions& options);

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& options);
int calibrate_command(const CalibrateOptions& options);

CLI::App* add_report_command(CLI::App& app, ReportOptions& options);
int report_command(const ReportOptions& options);
// Writes DIR's report; the page and figure paths go to `files_out`, notes to stderr. Exit status.
int write_report(const std::string& dir, std::ostream& files_out);

}  // namespace tsunagi::app
