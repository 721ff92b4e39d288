// The report's DOT files and, where Graphviz is installed (tools/install-deps.sh installs it),
// their SVG renderings: the figures a paper takes, in a tool its authors already use.
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>

#include "report_parts.hpp"
#include "tsunagi/runner/results/output_files.hpp"

extern char** environ;

namespace tsunagi::runner::report {
namespace {

// Runs `argv` (found on PATH) and waits; "" on success, else why not.
std::string run_program(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (spawned != 0) return argv[0] + ": " + std::strerror(spawned);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return argv[0] + ": " + std::strerror(errno);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) return argv[0] + ": not found";
  return argv[0] + " failed (status " + std::to_string(status) + ")";
}

void render(const std::filesystem::path& dot_file, const std::filesystem::path& svg_file,
            std::vector<std::string> command, ReportOutput& output) {
  command.insert(command.end(), {"-Tsvg", dot_file.string(), "-o", svg_file.string()});
  const std::string failure = run_program(command);
  if (failure.empty()) {
    output.files.push_back(svg_file);
  } else {
    output.notes.push_back(svg_file.filename().string() + " not rendered (" + failure +
                           "; Graphviz comes with tools/install-deps.sh)");
  }
}

}  // namespace

void write_graphviz_files(const RunFiles& run, ReportOutput& output) {
  const std::string topology = true_topology_dot(run);
  if (!topology.empty()) {
    const std::filesystem::path file = run.dir / "topology.dot";
    write_text_file(file, topology);
    output.files.push_back(file);
    render(file, run.dir / "topology-graphviz.svg", {"dot"}, output);
    const std::filesystem::path graphml = run.dir / "topology.graphml";
    write_text_file(graphml, topology_graphml(run));
    output.files.push_back(graphml);
  }
  const std::filesystem::path overlay = run.dir / "overlay.dot";
  write_text_file(overlay, overlay_dot(run));
  output.files.push_back(overlay);
  // neato -n keeps the positions the file gives (the same circle as the page's picture).
  render(overlay, run.dir / "overlay-graphviz.svg", {"neato", "-n"}, output);
}

}  // namespace tsunagi::runner::report
