// Basic vocabulary of the protocol core: time, ranks, connection handles, endpoints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tsunagi {

// Simulated or real time, integer nanoseconds since the start of the run.
using TimeNs = std::int64_t;
constexpr TimeNs kNsPerUs = 1'000;
constexpr TimeNs kNsPerMs = 1'000'000;
constexpr TimeNs kNsPerSec = 1'000'000'000;

// Index of an application process (node). The rendezvous is not a rank.
using Rank = std::int32_t;
constexpr Rank kNoRank = -1;

// Handle of one connection as seen by one process. Handles the core opens itself (Connect) have
// the top bit clear; handles of accepted connections are chosen by the backend and have it set,
// so the two spaces never collide.
using ConnId = std::uint64_t;
constexpr ConnId kAcceptedConnBit = ConnId{1} << 63;

// Opaque address of a process ("host42:7" in SimGrid, "10.1.2.3:7001" in realnet). The core
// learns endpoints from the rendezvous protocol and hands them back unchanged.
using Endpoint = std::string;

// A list of rank lists: inferred switch groups, each sorted, ordered by their smallest rank.
using Groups = std::vector<std::vector<Rank>>;

}  // namespace tsunagi
