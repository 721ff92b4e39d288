// A Dragonfly network (scenario network.dragonfly) in network namespaces: every router a
// namespace that routes (IP forwarding, static routes along the Dragonfly's minimal routes),
// its nodes on a bridge in it, one subnet per router, every router link a veth pair or delay
// line with its class's latency and rate (docs/realnet.md, "Dragonfly").
#pragma once

#include <string>

#include "netns_network.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::realnet {

// Requires scenario.network.dragonfly.
NetnsPlan plan_netns_dragonfly(const scenario::Scenario& scenario, const std::string& prefix,
                               const NetnsCalibration& calibration);

// "10.<128 + r/256>.<r % 256>.0/24": router r's subnet.
std::string dragonfly_subnet(int router);

}  // namespace tsunagi::realnet
