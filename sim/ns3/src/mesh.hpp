// Switches joined by explicit links and routed by a next-hop table (Ns3Mesh): a Dragonfly's
// routers (issue 13). docs/ns3.md, "Dragonfly".
#pragma once

#include <memory>
#include <vector>

#include <ns3/node.h>
#include <ns3/ptr.h>

#include "serial_fifos.hpp"
#include "tsunagi/sim/ns3/ns3_spec.hpp"

namespace tsunagi::sim::ns3 {

// One point-to-point link per mesh link (addresses: address_plan.hpp), then on every switch s
// one static route per other switch d: d's host block to the next switch on the way,
// mesh.next[s][d]. Hosts are attached beforehand; their blocks are the switches' blocks.
// Throws std::invalid_argument when the links do not fit the address plan or a next hop has no
// link to it. With mesh.fifo_bytes, every link's queues hold that many bytes and are watched:
// the result says what they did (null without).
std::shared_ptr<SerialFifos> build_mesh(const Ns3Mesh& mesh,
                                        const std::vector<::ns3::Ptr<::ns3::Node>>& switches);

}  // namespace tsunagi::sim::ns3

namespace tsunagi::sim::ns3 {

// Sites with per-pair RTTs (issue 15, site_links.cpp): one point-to-point link per pair of
// cluster routers (addresses from the mesh space, unused in WANs), and on each router a route
// for every switch block of the other cluster over it. The star core stays for the gateways;
// these more specific routes win over a router's default route to it.
void build_site_links(const Ns3Spec& spec, const std::vector<::ns3::Ptr<::ns3::Node>>& switches);

}  // namespace tsunagi::sim::ns3
