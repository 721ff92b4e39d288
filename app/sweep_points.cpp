// Points of a sweep. See sweep_points.hpp.
#include "sweep_points.hpp"

#include "exit_codes.hpp"
#include "sweep_results.hpp"
#include "tsunagi/runner/results/regular_file.hpp"

namespace tsunagi::app::sweep {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

bool same_identity(const json& stored, const json& identity) {
  for (const auto& [key, value] : identity.items()) {
    if (!stored.contains(key) || stored[key] != value) return false;
  }
  return true;
}

}  // namespace

bool done_before(PointRun& run, bool retry_failed) {
  const std::optional<json> stored = read_json_file(run.dir / kPointFileName);
  if (!stored || !stored->is_object() || !same_identity(*stored, run.identity)) return false;
  if (!stored->contains("exit_status") || !(*stored)["exit_status"].is_number_integer()) {
    return false;
  }
  if (!read_complete_result(run.dir)) return false;
  const int status = (*stored)["exit_status"].get<int>();
  if (retry_failed && status != kExitOk) return false;
  run.exit_status = status;
  run.done_before = true;
  return true;
}

void write_point_file(const PointRun& run, const std::vector<std::string>& keys,
                      const std::string& scenario_path) {
  json file = run.identity;
  file["scenario"] = scenario_path;  // for people: the file's contents are what is compared
  json values = json::object();
  for (std::size_t i = 0; i < keys.size(); ++i) values[keys[i]] = run.point->values[i];
  file["point"] = values;
  file["exit_status"] = *run.exit_status;
  file["wall_s"] = run.wall_s;
  runner::write_file_atomically((run.dir / kPointFileName).string(),
                                [&](std::ostream& out) { out << file.dump(2) << '\n'; });
}

std::vector<std::string> point_command(const SweepOptions& options, const PointRun& run,
                                       const std::string& program) {
  std::vector<std::string> argv = {program,   "run",           options.scenario,
                                   "--quiet", "--backend",     options.backend,
                                   "--out",   run.dir.string()};
  for (const std::string& override_text : run.point->overrides) {
    argv.push_back("--set");
    argv.push_back(override_text);
  }
  return argv;
}

}  // namespace tsunagi::app::sweep
