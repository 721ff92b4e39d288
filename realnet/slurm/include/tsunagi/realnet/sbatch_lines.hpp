// #SBATCH lines of the scripts tsunagi writes for Slurm (a realnet run's script, a sweep's job
// array): derived KEY=VALUE pairs, then the user's --sbatch KEY=VALUE options applied in order —
// a known KEY replaces its line, a new one is added, "KEY=" removes one.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace tsunagi::realnet {

using SbatchLines = std::vector<std::pair<std::string, std::string>>;

// Throws std::invalid_argument naming an option that is not KEY=VALUE (KEY: a-z, 0-9, - and _).
void apply_sbatch_options(SbatchLines& lines, const std::vector<std::string>& options);

// "#SBATCH --KEY=VALUE\n" for every line (the value quoted for the shell where needed).
std::string sbatch_header(const SbatchLines& lines);

}  // namespace tsunagi::realnet
