// A serial-link network (scenario network.serial, issue 14) in network namespaces: every node a
// namespace of its own that forwards (IP forwarding, static routes along scenario::serial_path),
// every serial link one veth pair (or delay line) between two node namespaces with the link's
// latency and rate, no bridge and no switch. A node's address sits on its loopback device, so
// it is the same whichever link a packet takes. The rendezvous hangs off node 0 by a console
// link. A shared segment is a plain switch (plan_netns builds its bridge). docs/realnet.md.
#pragma once

#include <string>

#include "netns_network.hpp"
#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::realnet {

// Requires scenario.network.serial with medium = links.
NetnsPlan plan_netns_serial(const scenario::Scenario& scenario, const std::string& prefix,
                            const NetnsCalibration& calibration);

// "10.<160 + i/256>.<i % 256>.1": node i's address.
std::string serial_node_ip(int node);

}  // namespace tsunagi::realnet
