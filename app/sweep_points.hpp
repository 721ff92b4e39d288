// One point of a sweep as this invocation sees it: its directory, what makes two runs of it the
// same run (identity), whether it finished (now or before), and the files it keeps there.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sweep.hpp"
#include "sweep_spec.hpp"

namespace tsunagi::app::sweep {

inline constexpr const char* kPointFileName = "sweep-point.json";  // a finished point's parameters
inline constexpr const char* kCsvFileName = "sweep.csv";
inline constexpr const char* kLockFileName = "sweep.lock";
inline constexpr const char* kStdoutFileName = "stdout.txt";
inline constexpr const char* kStderrFileName = "stderr.txt";

struct PointRun {
  const sweep::Point* point = nullptr;
  std::filesystem::path dir;
  nlohmann::json identity;         // what makes two runs of this point the same run
  std::optional<int> exit_status;  // once finished (now or before)
  bool done_before = false;
  std::string reason;  // why it failed, for the progress line
  pid_t pid = 0;
  std::chrono::steady_clock::time_point start;
  double wall_s = 0;
};

// A point is done when its directory holds the parameters file of this very point and a
// complete result.json (a failed run, exit 1, is done too unless `retry_failed`).
bool done_before(PointRun& run, bool retry_failed);

// DIR/sweep-point.json: identity, the point's values, exit status, wall time.
void write_point_file(const PointRun& run, const std::vector<std::string>& keys,
                      const std::string& scenario_path);

// The `tsunagi run` command line of a point (argv[0] = `program`).
std::vector<std::string> point_command(const SweepOptions& options, const PointRun& run,
                                       const std::string& program);

}  // namespace tsunagi::app::sweep
