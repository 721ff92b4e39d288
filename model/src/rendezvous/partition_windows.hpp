// The first step of groups = "partition" (docs/tree-inference.md "The partition method"):
// every host probes the next host in rank order (one probe each), and the hosts are cut into
// windows of about `width` consecutive hosts, only where the chain proves a switch boundary.
// Each window is then a part of the partition rounds, all windows at once.
//
// A proven boundary: the chain RTT d_i between hosts i and i+1 is a significant step above a
// neighbouring chain RTT (d_i >= (1 + min_jump_ratio) x d_(i-1) or d_(i+1)). Were hosts i and
// i+1 on one switch S, d_i would be S's switch-mate RTT a, and every RTT from a host of S to
// another host is at least a (condition (1): other switches are farther), so no neighbour
// could be that much smaller. When ranks are placed in blocks (every switch's hosts
// consecutive in rank order) a window is therefore a union of whole switches, which is what
// the rounds inside it need.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi {

// One rank per host, the lowest, in rank order; a rank without a host label is its own host.
std::vector<Rank> host_representatives(const std::vector<std::string>& hosts);

// Where windows start (indices into the representatives): a window ends at the first proven
// boundary once it holds `width` hosts. chain[i] = RTT between representatives i and i+1
// (<= 0: not measured; never a boundary, nor evidence for one).
std::vector<std::size_t> window_starts(const std::vector<TimeNs>& chain, std::size_t width,
                                       double min_jump_ratio);

// The ranks of every window (host-mates follow their representative), each sorted.
std::vector<std::vector<Rank>> window_parts(const std::vector<std::string>& hosts,
                                            const std::vector<Rank>& reps,
                                            const std::vector<std::size_t>& starts);

// Whether every group's hosts are consecutive representatives. Under block placement the
// switches are, so a group that is not shows the premise broken (the caller falls back).
bool groups_are_runs(const Groups& groups, const std::vector<std::string>& hosts,
                     const std::vector<Rank>& reps);

// The window width used for n hosts: 2 sqrt(n), at least `least` (partition_window_min, 64 by
// default). A window's rounds cost time in proportion to its width, so the groups' simulated
// time grows as sqrt(N).
std::size_t window_width(std::size_t hosts, int least = 64);

}  // namespace tsunagi
