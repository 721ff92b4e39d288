// The timeline section of the report: the figure, the buttons above it and the script that
// makes them work (zoom, pan, a jump to each phase, a linear or per-phase time axis).
#pragma once

#include <string>

#include "report_data.hpp"
#include "report_phases.hpp"
#include "report_rows.hpp"

namespace tsunagi::runner::report {

struct TimelineFigure {
  std::string svg;       // also written as timeline.svg
  std::string controls;  // HTML above it on the page
};

TimelineFigure timeline_figure(const RunFiles& run);

// Buttons: the whole run, each phase that occurs (from its first start to its last end), the
// linear axis; a line on how to zoom.
std::string timeline_controls(const Timeline& timeline, const PhaseAxis& axis);

// Plain JavaScript run after the page's own script; needs nothing from the network.
const char* timeline_script();

}  // namespace tsunagi::runner::report
