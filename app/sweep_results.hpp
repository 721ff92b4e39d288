// Reading what a sweep's points left behind: result.json, a value at a dotted key, CSV cells,
// why a point failed; and durations as people read them. Shared by the local runner, the Slurm
// array (sweep_slurm.hpp) and the CSV writer.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tsunagi::app::sweep {

// "0.25 s", "4.2 s", "38 s", "3 min 05 s", "2 h 10 min".
std::string format_duration(double seconds);

// The file's JSON, or nullopt when it is missing or not JSON.
std::optional<nlohmann::json> read_json_file(const std::filesystem::path& file);

// DIR/result.json when it is complete (written under a temporary name and renamed, so a
// parsable object with its "ok" member is a finished one).
std::optional<nlohmann::json> read_complete_result(const std::filesystem::path& dir);

// The value at a dotted path: object members (a member whose name has dots, such as
// backend_counts' "inference.rtt_probes", is found too) and array indices ("inference.groups.0").
const nlohmann::json* value_at(const nlohmann::json& value, std::string_view path);

// A cell's text (strings bare, other JSON as JSON, null/absent empty) and its CSV quoting.
std::string csv_text(const nlohmann::json* value);
std::string csv_field(const std::string& text);

// The first line of a failed child's stderr that says why ("tsunagi run: ..."), else its first
// non-empty line.
std::string failure_reason(const std::filesystem::path& stderr_file);

}  // namespace tsunagi::app::sweep
