// The tsunagi program: `tsunagi run`, `compare`, `sweep`, `collect`, `report`, `help`
// (docs/cli.md).
#include <iostream>

#include <CLI/CLI.hpp>

#include "build_commit.hpp"
#include "cli_docs.hpp"
#include "cli_suggest.hpp"
#include "cli_typos.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "sweep.hpp"
#include "tsunagi/runner/results/version.hpp"

int main(int argc, char** argv) {
  using namespace tsunagi::app;
  CLI::App app{
      "tsunagi: connection-managed message passing, simulated (SimGrid flow level, ns-3 packet\n"
      "level) or real (TCP sockets). One protocol core; result.json and trace.jsonl are the same\n"
      "from every backend. `tsunagi help COMMAND` or `tsunagi COMMAND --help` for its options."};
  // The commit tells two builds of one version apart (docs/cli.md, "Version").
  app.set_version_flag("--version", std::string("tsunagi ") + tsunagi::runner::kTsunagiVersion +
                                        " (commit " + kBuildCommit + ")");
  app.require_subcommand(1);

  RunOptions run_options;
  CompareOptions compare_options;
  SweepOptions sweep_options;
  CollectOptions collect_options;
  CalibrateOptions calibrate_options;
  ReportOptions report_options;
  std::string help_topic;
  bool man_page = false;
  bool bash_completion = false;
  CLI::App* run = add_run_command(app, run_options);
  CLI::App* compare = add_compare_command(app, compare_options);
  CLI::App* sweep = add_sweep_command(app, sweep_options);
  CLI::App* collect = add_collect_command(app, collect_options);
  CLI::App* report = add_report_command(app, report_options);
  CLI::App* calibrate = add_calibrate_command(app, calibrate_options);
  CLI::App* help = app.add_subcommand("help", "Print this help, or a command's: tsunagi help run");
  help->add_option("COMMAND", help_topic, "run, compare, sweep, collect, report or calibrate");
  help->add_flag("--man", man_page, "Print the man page, tsunagi(1), in roff");
  help->add_flag("--bash-completion", bash_completion, "Print the bash completion script");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version are "errors" with status 0; every real parse error is bad input.
    if (error.get_exit_code() != 0) {
      const std::string typo = typo_message(app, argc, argv);
      if (!typo.empty()) {
        std::cerr << typo << "\n";
        return kExitBadInput;
      }
    }
    const int status = app.exit(error);
    return status == 0 ? kExitOk : kExitBadInput;
  }
  if (run->parsed()) return run_command(run_options);
  if (compare->parsed()) return compare_command(compare_options);
  if (sweep->parsed()) return sweep_command(sweep_options);
  if (collect->parsed()) return collect_command(collect_options);
  if (report->parsed()) return report_command(report_options);
  if (calibrate->parsed()) return calibrate_command(calibrate_options);
  if (help->parsed()) {
    if (man_page) {
      write_man_page(app, tsunagi::runner::kTsunagiVersion, std::cout);
      return kExitOk;
    }
    if (bash_completion) {
      write_bash_completion(app, std::cout);
      return kExitOk;
    }
    if (help_topic.empty()) {
      // app.help() would print the help of the subcommand parsed last: `help` itself.
      std::cout << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
      return kExitOk;
    }
    for (CLI::App* command : {run, compare, sweep, collect, report, calibrate})
      if (command->get_name() == help_topic) {
        std::cout << command->help();
        return kExitOk;
      }
    const std::string hint = did_you_mean(
        suggest(help_topic, {"run", "compare", "sweep", "collect", "report", "calibrate"}));
    std::cerr << "tsunagi help: no command '" << help_topic << "'"
              << (hint.empty() ? " (commands: run, compare, sweep, collect, report, calibrate)"
                               : "; " + hint)
              << "\n";
    return kExitBadInput;
  }
  return kExitBadInput;  // unreachable: require_subcommand(1)
}
