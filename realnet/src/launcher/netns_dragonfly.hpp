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

// The interface of router `from` on its link to the adjacent router `to`, and the address of
// `to` on that link: what `from`'s route towards `to`'s subnet goes through.
struct NextHop {
  std::string ifname;
  std::string via;
};
NextHop dragonfly_next_hop(const scenario::DragonflySpec& spec, int from, int to);

// "10.<128 + r/256>.<r % 256>.0/24": router r's subnet.
std::string dragonfly_subnet(int router);

}  // namespace tsunagi::realnet
