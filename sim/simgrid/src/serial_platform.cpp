// A serial-link network (issue 14, paper 003) as one SimGrid Full zone: every node a host with
// its bus link (node <-> link card), every serial link a full-duplex link, and every ordered
// pair of hosts routed over scenario::serial_path — the links of the nodes it crosses, no
// switch. The shared-segment variant routes every pair over one shared link instead (an
// Ethernet segment: all traffic, both directions, divides its bandwidth). docs/simgrid.md.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <simgrid/s4u/Host.hpp>

#include "platform_parts.hpp"
#include "time_units.hpp"
#include "tsunagi/scenarios/serial.hpp"
#include "tsunagi/sim/simgrid/simgrid_backend.hpp"

namespace tsunagi::sim::simgrid {
namespace {

struct SerialHost {
  sg4::Host* host = nullptr;
  sg4::Link* bus = nullptr;  // the node's bus to its card (a shared segment: its tap)
  int node = 0;              // the node whose card it hangs off (the rendezvous: node 0)
};

SerialHost create_node_host(sg4::NetZone* zone, const std::string& name, int node,
                            const scenario::Network& network, const PlatformOptions& options) {
  const scenario::SerialSpec& spec = *network.serial;
  SerialHost out;
  out.node = node;
  out.host = zone->create_host(name, options.host_speed);
  out.host->set_core_count(options.cores_per_host);
  out.bus = duplex_link(zone, name + ".bus", spec.bus_bandwidth, spec.bus_latency);
  const sg4::Link* lo = zone->create_link(name + ".lo", network.loopback_bandwidth)
                            ->set_latency(to_seconds(network.loopback_latency))
                            ->seal();
  zone->add_route(out.host->get_netpoint(), out.host->get_netpoint(), nullptr, nullptr,
                  {sg4::LinkInRoute(lo)}, false);
  return out;
}

using LinkMap = std::map<std::pair<int, int>, sg4::Link*>;

// Serial links run from the lower node number up (UP) and back (DOWN).
std::vector<sg4::LinkInRoute> serial_route(const scenario::SerialSpec& spec, const LinkMap& links,
                                           const SerialHost& a, const SerialHost& b) {
  std::vector<sg4::LinkInRoute> route{sg4::LinkInRoute(a.bus, Direction::UP)};
  const std::vector<int> path = scenario::serial_path(spec, a.node, b.node);
  for (std::size_t i = 1; i < path.size(); ++i) {
    const auto ends = std::minmax(path[i - 1], path[i]);
    route.emplace_back(links.at(ends), path[i - 1] < path[i] ? Direction::UP : Direction::DOWN);
  }
  route.emplace_back(b.bus, Direction::DOWN);
  return route;
}

}  // namespace

Platform build_serial_platform(const scenario::Network& network, const PlatformOptions& options) {
  const scenario::SerialSpec& spec = *network.serial;
  const bool shared = spec.medium == scenario::SerialMedium::Shared;
  sg4::NetZone* zone = sg4::create_full_zone(shared ? "segment" : "serial");
  const std::vector<scenario::HostSlot> slots = scenario::enumerate_hosts(network);
  std::vector<SerialHost> hosts;
  Platform platform;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    hosts.push_back(create_node_host(zone, slots[i].host, shared ? 0 : slots[i].switch_index,
                                     network, options));
    platform.hosts.push_back(hosts.back().host);
  }
  // The rendezvous is an extra host on node 0's card (a console), wired like a node.
  hosts.push_back(create_node_host(zone, kRendezvousHost, 0, network, options));
  platform.rendezvous = hosts.back().host;
  LinkMap links;
  for (const scenario::SerialLink& link : scenario::serial_links(spec))
    links[{link.a, link.b}] =
        duplex_link(zone, "serial:n" + std::to_string(link.a) + "-n" + std::to_string(link.b),
                    spec.bandwidth, spec.latency);
  // One medium for everything on the segment: SimGrid's default sharing, both directions.
  sg4::Link* segment = shared ? zone->create_link("segment", link_bandwidth(spec.segment_bandwidth))
                                    ->set_latency(to_seconds(link_latency(spec.segment_latency)))
                                    ->seal()
                              : nullptr;
  for (const SerialHost& a : hosts)
    for (const SerialHost& b : hosts) {
      if (a.host == b.host) continue;
      std::vector<sg4::LinkInRoute> route =
          shared ? std::vector<sg4::LinkInRoute>{sg4::LinkInRoute(a.bus, Direction::UP),
                                                 sg4::LinkInRoute(segment),
                                                 sg4::LinkInRoute(b.bus, Direction::DOWN)}
                 : serial_route(spec, links, a, b);
      zone->add_route(a.host->get_netpoint(), b.host->get_netpoint(), nullptr, nullptr, route,
                      false);
    }
  zone->seal();
  return platform;
}

}  // namespace tsunagi::sim::simgrid
