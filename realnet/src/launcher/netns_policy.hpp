// A WAN cluster's router policy as iptables commands (run in the router's namespace):
// firewall, inbound firewall, NAT and connection-rate limits of scenario.hpp's ClusterSpec.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::realnet {

// Interfaces of every router namespace: "lan" to the cluster's root switch, "wan" to the core.
inline constexpr const char* kRouterLan = "lan";
inline constexpr const char* kRouterWan = "wan";

// The iptables argv lists for cluster `c`'s router; `addresses(d)` are cluster d's addresses as
// seen on the WAN (its LAN's CIDR and its router's public address, where a Gateway relay and
// masqueraded hosts appear).
std::vector<std::vector<std::string>> router_rules(
    const scenario::Network& network, int c,
    const std::function<std::vector<std::string>(int)>& addresses);

}  // namespace tsunagi::realnet
