// Belady's optimal replacement (MIN), computed offline from a recorded reference string: on a
// fault with every frame taken, page out the port whose next write is farthest in the future
// (or never comes). No demand-paging policy faults less on the same string with the same number
// of frames, so it is the floor the online policies of policy.hpp are measured against.
#pragma once

#include <cstdint>
#include <vector>

#include "tsunagi/model/lmmc/types.hpp"

namespace tsunagi::lmmc {

// Faults of MIN on `references` (the port of every write, in order) with `frames` frames that
// start empty; the first write to each port is a fault, as in the replay.
std::uint64_t belady_faults(const std::vector<PortId>& references, int frames);

}  // namespace tsunagi::lmmc
