// `tsunagi report DIR`: the run report page (and its figures) from a finished run's files.
#include <iostream>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "tsunagi/runner/report/report.hpp"
#include "tsunagi/runner/results/output_files.hpp"
#include "tsunagi/runner/results/trace_reader.hpp"

namespace tsunagi::app {

CLI::App* add_report_command(CLI::App& app, ReportOptions& options) {
  CLI::App* report = app.add_subcommand(
      "report",
      "Write DIR/report.html (self-contained: topology, overlay, timeline, RTTs, connections) "
      "and its SVG/DOT figures from a run's files");
  report->add_option("DIR", options.dir, "Output directory of a tsunagi run")->required();
  return report;
}

int write_report(const std::string& dir, std::ostream& files_out) {
  try {
    const runner::ReportOutput output = runner::write_run_report(dir);
    files_out << output.page.string() << '\n';
    for (const auto& file : output.files) files_out << file.string() << '\n';
    for (const std::string& note : output.notes) std::cerr << "tsunagi report: " << note << '\n';
    return kExitOk;
  } catch (const runner::CompareError& error) {
    std::cerr << "tsunagi report: " << error.what() << '\n';
    return kExitBadInput;
  } catch (const runner::OutputError& error) {
    std::cerr << "tsunagi report: " << error.what() << '\n';
    return kExitFailed;
  }
}

int report_command(const ReportOptions& options) {
  return write_report(options.dir, std::cout);
}

}  // namespace tsunagi::app
