// The pieces the platform builders share (platform.cpp builds switch trees and WANs,
// dragonfly_platform.cpp Dragonflies): a switch's zones, its hosts, full-duplex links.
#pragma once

#include <string>
#include <vector>

#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include "platform.hpp"
#include "zone_assembly.hpp"

namespace tsunagi::sim::simgrid {

using NetPoint = ::simgrid::kernel::routing::NetPoint;
using Direction = sg4::LinkInRoute::Direction;

// One switch: `zone` is what its parent routes to; `leaf` holds its hosts and `gateway`.
// SimGrid 3.32 resolves a route wrongly when a host or router sits in a zone that also has
// child zones (find_common_ancestors then takes a host below for a local component), so a
// switch with child switches keeps its hosts and gateway in a leaf zone of their own; a switch
// without children is its own leaf.
struct SwitchZones {
  sg4::NetZone* zone = nullptr;
  sg4::NetZone* leaf = nullptr;
  NetPoint* gateway = nullptr;
};

// The scenario's [network.factors] (docs/calibration.md), set by build_platform before it builds
// any link and applied to every link but the loopbacks. A process builds one platform (SimGrid
// has one engine), so one setting beats passing the factors through every builder.
void set_link_factors(const scenario::NetworkFactors& factors);
double link_bandwidth(double nominal);
TimeNs link_latency(TimeNs nominal);

// Full duplex, like switched Ethernet: traffic in one direction never slows the other, which
// the throughput-interference inference relies on.
sg4::Link* duplex_link(sg4::NetZone* zone, const std::string& name, double bandwidth,
                       TimeNs latency);

// A host on switch `sw`: its own link (the switch's host figures) and its own loopback.
sg4::Host* add_host(const SwitchZones& sw, const std::string& name,
                    const scenario::SwitchSpec& spec, double loopback_bandwidth,
                    TimeNs loopback_latency, const PlatformOptions& options);

// The hosts of switch `s` (index into network.switches): the run of `slots` from `next` whose
// switch_index is s, appended to platform.hosts. Returns the slot after them.
std::size_t add_switch_hosts(const SwitchZones& sw, std::size_t s, const scenario::Network& network,
                             const std::vector<scenario::HostSlot>& slots, std::size_t next,
                             const PlatformOptions& options, Platform& platform);

// The zones of one switch under `parent` (nullptr: the root, placed under `top` when given,
// else the platform's root zone) and its uplink into the parent; joins and routes go through
// `assembly`, which joins the zones to the tree at its finish().
SwitchZones create_switch(const scenario::SwitchSpec& spec, const SwitchZones* parent,
                          bool has_children, sg4::NetZone* top, ZoneAssembly& assembly);

// Every host of the platform: processes' hosts, the rendezvous, relays.
std::vector<sg4::Host*> all_hosts(const Platform& platform);

// Sites on a backbone with one link per pair (site_backbone.cpp, issue 15): `roots` holds
// each cluster's root switch, in cluster order; `wan` is a full zone.
void join_site_backbone(sg4::NetZone* wan, const std::vector<SwitchZones>& roots,
                        const scenario::Network& network, ZoneAssembly& assembly);

// A Dragonfly (dragonfly_platform.cpp): called by build_platform for network.dragonfly.
Platform build_dragonfly_platform(const scenario::Network& network, const PlatformOptions& options);

// A serial-link network or its shared segment (serial_platform.cpp, issue 14).
Platform build_serial_platform(const scenario::Network& network, const PlatformOptions& options);

}  // namespace tsunagi::sim::simgrid
