// `tsunagi compare DIR_A DIR_B`: did two runs make the same decisions?
#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "tsunagi/runner/results/compare.hpp"

namespace tsunagi::app {

namespace {

void print_counts(std::ostream& out, const runner::CompareOutcome& outcome) {
  out << "A: " << outcome.processes_a << " processes, " << outcome.decisions_a << " decisions\n"
      << "B: " << outcome.processes_b << " processes, " << outcome.decisions_b << " decisions\n";
}

}  // namespace

CLI::App* add_compare_command(CLI::App& app, CompareOptions& options) {
  CLI::App* compare = app.add_subcommand(
      "compare",
      "Say whether two runs made the same protocol decisions, and where they differ "
      "(times and \"timing\" fields are ignored)");
  compare->add_option("DIR_A", options.dir_a, "Output directory of the first run")->required();
  compare->add_option("DIR_B", options.dir_b, "Output directory of the second run")->required();
  compare->add_option("--max", options.max_differences, "Differences to print at most")
      ->capture_default_str();
  return compare;
}

int compare_command(const CompareOptions& options) {
  runner::CompareOutcome outcome;
  try {
    outcome = runner::compare_runs(options.dir_a, options.dir_b, options.max_differences);
  } catch (const std::exception& error) {
    std::cerr << "tsunagi compare: " << error.what() << '\n';
    return kExitBadInput;
  }
  print_counts(std::cout, outcome);
  if (outcome.same) {
    std::cout << "same: every process made the same decisions; inferred groups equal\n";
    return kExitOk;
  }
  std::cout << "different: " << outcome.differing << " difference"
            << (outcome.differing == 1 ? "" : "s");
  if (outcome.differences.size() < outcome.differing) {
    std::cout << " (first " << outcome.differences.size() << " shown)";
  }
  std::cout << '\n';
  for (const std::string& difference : outcome.differences) std::cout << "  " << difference << '\n';
  return kExitFailed;
}

}  // namespace tsunagi::app
