// #SBATCH lines. See sbatch_lines.hpp.
#include "tsunagi/realnet/sbatch_lines.hpp"

#include <algorithm>
#include <stdexcept>

namespace tsunagi::realnet {

void apply_sbatch_options(SbatchLines& lines, const std::vector<std::string>& options) {
  for (const std::string& text : options) {
    const auto eq = text.find('=');
    const std::string key = text.substr(0, eq);
    if (eq == std::string::npos || key.empty() ||
        key.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos)
      throw std::invalid_argument("--sbatch " + text +
                                  ": expected KEY=VALUE, e.g. --sbatch partition=debug "
                                  "(KEY= removes a line)");
    const std::string value = text.substr(eq + 1);
    auto it =
        std::find_if(lines.begin(), lines.end(), [&](const auto& l) { return l.first == key; });
    if (value.empty()) {
      if (it != lines.end()) lines.erase(it);
    } else if (it != lines.end()) {
      it->second = value;
    } else {
      lines.emplace_back(key, value);
    }
  }
}

std::string sbatch_header(const SbatchLines& lines) {
  std::string header;
  for (const auto& [key, value] : lines) {
    // Slurm reads #SBATCH lines itself (no shell): quotes only where a value has blanks.
    const bool plain = value.find_first_of(" \t\"") == std::string::npos;
    header += "#SBATCH --" + key + "=" + (plain ? value : "\"" + value + "\"") + "\n";
  }
  return header;
}

}  // namespace tsunagi::realnet
