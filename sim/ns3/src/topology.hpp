// The scenario's switch tree as an ns-3 network of routers and point-to-point links.
//
// Every switch is a router node; every host link and every uplink is a full-duplex
// point-to-point link with the scenario's bandwidth and latency. ns-3's point-to-point devices
// cannot be bridge ports, and a bridged tree of CSMA links would be half duplex and flood ARP
// to every host; a routed tree needs no ARP at all and keeps both directions of a link
// independent, like switched Ethernet. Routes are static (docs/ns3.md, "Network").
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <ns3/ipv4-address.h>
#include <ns3/node.h>
#include <ns3/ptr.h>

#include "serial_fifos.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"
#include "wan_filter.hpp"

namespace tsunagi::sim::ns3 {

struct TopologyHost {
  std::string name;  // scenario host name ("s.0.0-h03"), or "rendezvous"
  ::ns3::Ptr<::ns3::Node> node;
  ::ns3::Ipv4Address address;
};

struct Topology {
  std::vector<TopologyHost> hosts;   // in Ns3Spec::hosts order
  TopologyHost rendezvous;           // an extra host on the (rendezvous cluster's) root
  std::vector<TopologyHost> relays;  // in Ns3Spec::relays order
  std::vector<::ns3::Ptr<::ns3::Node>> switches;  // in scenario order
  ::ns3::Ptr<::ns3::Node> core;                   // the WAN core (clusters only)
  std::vector<::ns3::Ptr<WanFilter>> filters;     // one per cluster, at its router (root switch)
  std::shared_ptr<WanPlaces> places;              // read by the filters
  std::shared_ptr<SerialFifos> serial_fifos;      // serial links' queues (null: none)
};

// Builds nodes, links, addresses and routes. Throws std::invalid_argument when the network
// does not fit the address plan (docs/ns3.md). With a pcap_dir, every host's link device
// writes <pcap_dir>/<host>.pcap.
Topology build_topology(const Ns3Spec& spec);

}  // namespace tsunagi::sim::ns3
