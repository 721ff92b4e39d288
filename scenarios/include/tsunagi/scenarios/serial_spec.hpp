// Serial-link networks (issue 14, paper 003): workstations joined by point-to-point serial FIFO
// links (STAFF-Link: 4 link ports per card, no switch, the nodes forward), or, for the paper's
// comparison, the same nodes on one shared Ethernet segment. Ground truth in serial.hpp.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "tsunagi/model/types.hpp"

namespace tsunagi::scenario {

enum class SerialLayout { Ring, Mesh, Torus, Hypercube, Links };
// Links = one serial link per listed pair; Shared = no links: every node on one segment.
enum class SerialMedium { Links, Shared };

struct SerialSpec {
  SerialLayout layout = SerialLayout::Ring;
  SerialMedium medium = SerialMedium::Links;
  int nodes = 2;
  int rows = 0;  // mesh and torus: rows x cols = nodes
  int cols = 0;
  std::vector<std::pair<int, int>> links;  // layout = links: node pairs as listed (a != b)
  int ports = 4;                           // link ports per node (one STAFF-Link card)
  double bandwidth = 2.5e6;                // bytes/s of one serial link, each direction
  TimeNs latency = 1 * kNsPerUs;           // one way over one link
  int fifo_bytes = 4096;                   // FIFO depth of a link end (ns-3 queue, netns qdisc)
  double bus_bandwidth = 100e6;            // node <-> its link card (SBus: 25 MHz x 32 bit)
  TimeNs bus_latency = 0;
  double segment_bandwidth = 1.25e6;  // medium = shared: the whole segment (10 Mbit/s Ethernet)
  TimeNs segment_latency = 10 * kNsPerUs;
  bool operator==(const SerialSpec&) const = default;
};

}  // namespace tsunagi::scenario
