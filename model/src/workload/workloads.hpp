// Factories of the built-in workloads (make_workload in workload.hpp picks one by config).
#pragma once

#include "tsunagi/model/workload/workload.hpp"

namespace tsunagi {

std::unique_ptr<Workload> make_pingpong(const PingPongConfig& cfg);
std::unique_ptr<Workload> make_intsort(const IntSortConfig& cfg);
std::unique_ptr<Workload> make_connectivity(const ConnectivityConfig& cfg);
std::unique_ptr<Workload> make_multicast(const MulticastConfig& cfg);
std::unique_ptr<Workload> make_lmmc(const LmmcConfig& cfg);
std::unique_ptr<Workload> make_indices(const IndicesConfig& cfg);

}  // namespace tsunagi
