// A serial-link network (scenario network.serial, issue 14) in network namespaces: every node a
// namespace of its own that forwards (IP forwarding, static routes along scenario::serial_path),
// every serial link a rated delay line between two node namespaces (every frame held for its
// serialisation time, FIFO, then the link's latency; tbf in front as the FIFO), no bridge and no
// switch. A node's address sits on its loopback device, so
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

// medium = shared, on the plain switch plan plan_netns built for it (one bridge in switch
// namespace "<prefix>s0", ports h1..hN and the rendezvous' port): makes the bridge one medium.
// Every frame entering the bridge is redirected through one IFB device whose tbf runs at the
// segment's rate, so all nodes and both directions share it, as on one Ethernet segment.
void share_serial_segment(const scenario::SerialSpec& spec, NetnsPlan& plan);

// "10.<160 + i/256>.<i % 256>.1": node i's address.
std::string serial_node_ip(int node);

}  // namespace tsunagi::realnet
