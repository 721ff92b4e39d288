// The run report (`tsunagi report DIR`, `tsunagi run --report`): one self-contained HTML page
// per run, DIR/report.html (inline SVG, CSS and script; it fetches nothing), and the pictures
// beside it as SVG and Graphviz DOT files for papers. docs/cli.md describes the page.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace tsunagi::runner {

struct ReportOutput {
  std::filesystem::path page;                // DIR/report.html
  std::vector<std::filesystem::path> files;  // the SVG and DOT files written beside it
  std::vector<std::string> notes;            // what was left out, and why (no topology.json, ...)
};

// Reads DIR/result.json, DIR/trace.jsonl and DIR/topology.json and writes the page and its
// figures into DIR. Graphviz renderings (topology-graphviz.svg, overlay-graphviz.svg) are made
// when `dot`/`neato` are on PATH, else a note says so. Throws CompareError when a run file is
// missing or malformed, OutputError when a file cannot be written.
ReportOutput write_run_report(const std::filesystem::path& dir);

}  // namespace tsunagi::runner
