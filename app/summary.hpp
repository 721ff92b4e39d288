// The short human summary `tsunagi run` prints on stdout, read back from result.json so that
// it can never disagree with the file.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tsunagi::app {

void print_run_summary(std::ostream& out, const nlohmann::ordered_json& result,
                       const std::filesystem::path& result_file,
                       const std::filesystem::path& trace_file,
                       const std::vector<std::filesystem::path>& more_files = {},
                       const std::vector<std::string>& notes = {});

// "1.23 s", "456 ms", "7.8 us": durations as people read them.
std::string format_seconds(double seconds);

}  // namespace tsunagi::app
