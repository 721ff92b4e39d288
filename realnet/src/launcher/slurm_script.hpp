// --net slurm: the one bash script that runs everything inside an allocation. The same script
// is what `--dry-run` prints (to submit with sbatch) and what an interactive run executes:
//
//   #SBATCH lines from the scenario (job name, nodes, tasks, time limit, output), each
//     replaceable with --sbatch KEY=VALUE;
//   checks that srun exists and that it runs inside an allocation, with messages naming that;
//   run.json for `tsunagi collect`;
//   srun of the rendezvous on one node, which writes its address to rendezvous.addr on the
//     shared file system, and srun of one task per rank, which read it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "launch_plan.hpp"

namespace tsunagi::realnet {

// KEY and VALUE of every #SBATCH line, in order: derived ones with --sbatch applied.
// Throws std::invalid_argument for an --sbatch that is not KEY=VALUE.
std::vector<std::pair<std::string, std::string>> sbatch_directives(
    const scenario::Scenario& scenario, const LaunchOptions& options, const LaunchPlan& plan);

// The whole script (plan.slurm_script). `manifest_json` is written to run.json by the script.
std::string slurm_script(const scenario::Scenario& scenario, const LaunchOptions& options,
                         const LaunchPlan& plan, const std::string& manifest_json);

}  // namespace tsunagi::realnet
