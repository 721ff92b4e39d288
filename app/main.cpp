// The tsunagi program: `tsunagi run`, `compare`, `sweep` and `collect` (docs/cli.md).
#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "sweep.hpp"
#include "tsunagi/runner/version.hpp"

int main(int argc, char** argv) {
  using namespace tsunagi::app;
  CLI::App app{
      "tsunagi: connection-managed message passing, simulated (SimGrid) or real.\n"
      "One protocol core; result.json and trace.jsonl are the same from every backend."};
  app.set_version_flag("--version", std::string("tsunagi ") + tsunagi::runner::kTsunagiVersion);
  app.require_subcommand(1);

  RunOptions run_options;
  CompareOptions compare_options;
  SweepOptions sweep_options;
  CollectOptions collect_options;
  CLI::App* run = add_run_command(app, run_options);
  CLI::App* compare = add_compare_command(app, compare_options);
  CLI::App* sweep = add_sweep_command(app, sweep_options);
  CLI::App* collect = add_collect_command(app, collect_options);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version are "errors" with status 0; every real parse error is bad input.
    const int status = app.exit(error);
    return status == 0 ? kExitOk : kExitBadInput;
  }
  if (run->parsed()) return run_command(run_options);
  if (compare->parsed()) return compare_command(compare_options);
  if (sweep->parsed()) return sweep_command(sweep_options);
  if (collect->parsed()) return collect_command(collect_options);
  return kExitBadInput;  // unreachable: require_subcommand(1)
}
