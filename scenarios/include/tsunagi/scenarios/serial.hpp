// Ground truth of a serial-link network (issue 14): node numbering, links and routes, the same
// for every backend (SimGrid links, ns-3 point-to-point devices, namespaces' veth pairs), so a
// message crosses the same links everywhere. docs/scenario-format.md, "[network.serial]".
#pragma once

#include <string>
#include <vector>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::scenario {

const char* to_string(SerialLayout layout);
const char* to_string(SerialMedium medium);

// Node i is switch "n<i>" (a node's own link card, one host), in node order; on a shared
// segment one switch "segment" with every node.
std::vector<SwitchSpec> serial_switches(const SerialSpec& spec);

// A serial link between two nodes (a < b), one per pair.
struct SerialLink {
  int a = 0;
  int b = 0;
  bool operator==(const SerialLink&) const = default;
};

// Every link of the layout, sorted by (a, b). Ring: i - i+1 (a 2-node ring is one link); mesh:
// right and down neighbours; torus: with wrap-around (a dimension of 2 wraps onto the same
// link); hypercube: i - i xor 2^k; links: as listed. Empty on a shared segment.
std::vector<SerialLink> serial_links(const SerialSpec& spec);

// Links per node (its used ports), index = node.
std::vector<int> serial_degrees(const SerialSpec& spec);

// The node after `from` on a shortest path to `to` (from != to): breadth-first over the links,
// the lowest-numbered neighbour among the shortest; -1 when `to` cannot be reached.
int serial_next_node(const SerialSpec& spec, int from, int to);

// The nodes a message crosses, both ends included; {from} when equal; empty if unreachable.
std::vector<int> serial_path(const SerialSpec& spec, int from, int to);

// Hop distances from every node to every other (-1: unreachable), by the same search.
std::vector<std::vector<int>> serial_hops(const SerialSpec& spec);

}  // namespace tsunagi::scenario
