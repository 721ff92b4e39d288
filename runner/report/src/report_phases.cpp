// Protocol phases and the per-phase time axis of the report's timeline (report_phases.hpp).
#include "report_phases.hpp"

#include <algorithm>
#include <array>

#include "report_svg.hpp"

namespace tsunagi::runner::report {
namespace {

// Colours far enough apart to tell phases apart at a glance (ColorBrewer's qualitative sets,
// Okabe–Ito's magenta for the workload, the phase most readers look for).
constexpr std::array<Phase, 10> kPhases = {{
    {"", "starting / probing RTTs", "#e3e3e3"},
    {"directory", "probing (directory sent)", "#6baed6"},
    {"rtt_view", "waiting for groups", "#c6dbef"},
    {"groups", "groups sent", "#74c476"},
    {"tree", "tree inferred", "#238b45"},
    {"plan", "connecting", "#fd8d3c"},
    {"relay_attached", "attached to a relay", "#9e9ac8"},
    {"routes", "routed: workload", "#cc79a7"},
    {"all_settled", "overlay settled", "#d9f0a3"},
    {"shutdown", "shutting down", "#969696"},
}};

}  // namespace

std::span<const Phase> phases() {
  return kPhases;
}

int phase_index(const std::string& kind) {
  for (std::size_t i = 1; i < kPhases.size(); ++i)
    if (kind == kPhases[i].kind) return static_cast<int>(i);
  return -1;
}

PhaseAxis::PhaseAxis(std::vector<std::int64_t> boundaries, std::int64_t end_ns) {
  end_ns = std::max<std::int64_t>(end_ns, 1);
  times_.push_back(0);
  std::sort(boundaries.begin(), boundaries.end());
  for (std::int64_t t : boundaries)
    if (t > times_.back() && t < end_ns) times_.push_back(t);
  times_.push_back(end_ns);
  // Half of the width in proportion to time, half shared equally among the stretches.
  const double stretches = static_cast<double>(times_.size() - 1);
  at_.push_back(0);
  for (std::size_t i = 1; i < times_.size(); ++i) {
    const double share =
        static_cast<double>(times_[i] - times_[i - 1]) / static_cast<double>(end_ns);
    at_.push_back(at_.back() + 0.5 * share + 0.5 / stretches);
  }
}

double PhaseAxis::at(double t_ns) const {
  if (t_ns <= 0) return 0;
  if (t_ns >= static_cast<double>(times_.back())) return 1;
  const auto next = std::upper_bound(times_.begin(), times_.end(), static_cast<std::int64_t>(t_ns));
  const auto i = static_cast<std::size_t>(next - times_.begin());
  const double t0 = static_cast<double>(times_[i - 1]);
  const double t1 = static_cast<double>(times_[i]);
  return at_[i - 1] + (at_[i] - at_[i - 1]) * (t_ns - t0) / (t1 - t0);
}

double PhaseAxis::time_at(double u) const {
  if (u <= 0) return 0;
  if (u >= 1) return static_cast<double>(times_.back());
  const auto next = std::upper_bound(at_.begin(), at_.end(), u);
  const auto i = static_cast<std::size_t>(next - at_.begin());
  const double t0 = static_cast<double>(times_[i - 1]);
  const double t1 = static_cast<double>(times_[i]);
  return t0 + (t1 - t0) * (u - at_[i - 1]) / (at_[i] - at_[i - 1]);
}

std::string PhaseAxis::breakpoints() const {
  std::string text;
  for (std::size_t i = 0; i < times_.size(); ++i)
    text += (i == 0 ? "" : " ") + std::to_string(times_[i]) + "," + num(at_[i] * 1e6);
  return text;
}

}  // namespace tsunagi::runner::report
