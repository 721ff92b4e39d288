// [network.serial] (issue 14, paper 003): nodes joined by serial point-to-point links (ring,
// 2-D mesh or torus, hypercube or a link list), or the same nodes on one shared Ethernet segment
// (medium = "shared"). The nodes' link cards become the network's switches (serial_switches).
#include <algorithm>
#include <map>
#include <set>

#include "readers.hpp"
#include "tsunagi/scenarios/serial.hpp"

namespace tsunagi::scenario {
namespace {

// The largest serial network measured to finish (docs/scenario-format.md, "Largest networks"):
// a ring's routes grow with the nodes, its run time with their cube (64: 18 s of CPU on
// SimGrid; 256 did not finish in 5 min; 4096 passed the loader and never finished).
constexpr int kMaxSerialNodes = 256;
constexpr int kMaxPorts = 64;

SerialLayout read_layout(const Section& s) {
  const std::string name = s.string("layout", "ring");
  static const std::map<std::string, SerialLayout> kLayouts{{"ring", SerialLayout::Ring},
                                                            {"mesh", SerialLayout::Mesh},
                                                            {"torus", SerialLayout::Torus},
                                                            {"hypercube", SerialLayout::Hypercube},
                                                            {"links", SerialLayout::Links}};
  const auto it = kLayouts.find(name);
  if (it == kLayouts.end())
    s.fail("layout", "layout = \"" + name +
                         "\" is not a serial layout — use \"ring\", \"mesh\", \"torus\", "
                         "\"hypercube\" or \"links\"");
  return it->second;
}

SerialMedium read_medium(const Section& s) {
  const std::string name = s.string("medium", "links");
  if (name == "links") return SerialMedium::Links;
  if (name == "shared") return SerialMedium::Shared;
  s.fail("medium", "medium = \"" + name +
                       "\" is not a medium — use \"links\" (serial links) or \"shared\" (the "
                       "same nodes on one Ethernet segment)");
}

int read_nodes(const Section& s, const char* example) {
  if (!s.has("nodes")) s.fail_here("[" + s.path() + "] has no nodes — add e.g. nodes = " + example);
  const int nodes = s.count("nodes", 2, 2);
  if (nodes > kMaxSerialNodes)
    s.fail("nodes", "nodes = " + std::to_string(nodes) + " is more than " +
                        std::to_string(kMaxSerialNodes) + " — lower nodes");
  return nodes;
}

void read_grid(const Section& s, SerialSpec& spec) {
  if (!s.has("rows") || !s.has("cols"))
    s.fail_here("layout = \"" + std::string(to_string(spec.layout)) +
                "\" needs rows and cols — add e.g. rows = 4 and cols = 4");
  spec.rows = s.count("rows", 1, 1);
  spec.cols = s.count("cols", 1, 1);
  if (static_cast<std::int64_t>(spec.rows) * spec.cols > kMaxSerialNodes)
    s.fail("rows", "rows x cols is more than " + std::to_string(kMaxSerialNodes) +
                       " nodes — lower rows or cols");
  spec.nodes = spec.rows * spec.cols;
  if (spec.nodes < 2) s.fail("rows", "a grid of one node has no links — raise rows or cols");
  if (s.has("nodes") && s.count("nodes", 0, 0) != spec.nodes)
    s.fail("nodes", "nodes = " + std::to_string(s.count("nodes", 0, 0)) + " but rows x cols = " +
                        std::to_string(spec.nodes) + " — remove nodes or make them agree");
}

int link_end(const Section& s, const toml::node* node, int nodes) {
  const auto value = node ? node->value<std::int64_t>() : std::nullopt;
  if (!value || *value < 0 || *value >= nodes)
    fail_at(node ? node->source() : s.table().source(), s.file(),
            "a link end must be a node number from 0 to " + std::to_string(nodes - 1) +
                " — write links = [[0, 1], [1, 2]]");
  return static_cast<int>(*value);
}

void read_link_list(const Section& s, SerialSpec& spec) {
  spec.nodes = read_nodes(s, "4");
  const toml::array* links = s.table().get_as<toml::array>("links");
  if (!links || links->empty())
    s.fail_here("layout = \"links\" needs links — add e.g. links = [[0, 1], [1, 2]]");
  std::set<std::pair<int, int>> seen;
  for (const toml::node& item : *links) {
    const toml::array* pair = item.as_array();
    if (!pair || pair->size() != 2)
      fail_at(item.source(), s.file(),
              "each link is a pair of node numbers — write links = [[0, 1], [1, 2]]");
    const int a = link_end(s, pair->get(0), spec.nodes);
    const int b = link_end(s, pair->get(1), spec.nodes);
    if (a == b)
      fail_at(item.source(), s.file(),
              "link [" + std::to_string(a) + ", " + std::to_string(b) +
                  "] joins a node to itself — remove it");
    if (!seen.insert(std::minmax(a, b)).second)
      fail_at(item.source(), s.file(),
              "link [" + std::to_string(a) + ", " + std::to_string(b) +
                  "] is listed twice — one serial link per pair; remove the second");
    spec.links.emplace_back(a, b);
  }
}

void read_shape(const Section& s, SerialSpec& spec) {
  if (spec.layout != SerialLayout::Links && s.has("links"))
    s.fail("links",
           "links are only read with layout = \"links\" — remove links or set the "
           "layout to \"links\"");
  switch (spec.layout) {
    case SerialLayout::Ring:
      spec.nodes = read_nodes(s, "8");
      break;
    case SerialLayout::Hypercube:
      spec.nodes = read_nodes(s, "8");
      if ((spec.nodes & (spec.nodes - 1)) != 0)
        s.fail("nodes", "a hypercube has a power of two nodes, not " + std::to_string(spec.nodes) +
                            " — use 2, 4, 8, 16, ...");
      break;
    case SerialLayout::Mesh:
    case SerialLayout::Torus:
      read_grid(s, spec);
      break;
    case SerialLayout::Links:
      read_link_list(s, spec);
      break;
  }
}

// Every node needs a port per link, and every node must be reachable over the links.
void check_links(const Section& s, const SerialSpec& spec) {
  const std::vector<int> degree = serial_degrees(spec);
  for (std::size_t i = 0; i < degree.size(); ++i)
    if (degree[i] > spec.ports)
      s.fail(s.has("ports") ? "ports" : "layout",
             "node " + std::to_string(i) + " has " + std::to_string(degree[i]) +
                 " serial links but ports = " + std::to_string(spec.ports) +
                 " — raise ports (one STAFF-Link card has 4) or choose a smaller layout");
  const std::vector<int> path_to_0 = serial_hops(spec)[0];
  for (std::size_t i = 0; i < path_to_0.size(); ++i)
    if (path_to_0[i] < 0)
      s.fail(s.has("links") ? "links" : "layout",
             "node " + std::to_string(i) +
                 " cannot reach node 0 over the serial links — add a link to it");
}

}  // namespace

SerialSpec read_serial(const Section& network, const Section& s) {
  refuse_other_shapes(network, "serial", "serial links join the nodes without switches");
  SerialSpec spec;
  spec.layout = read_layout(s);
  spec.medium = read_medium(s);
  read_shape(s, spec);
  spec.ports = s.count("ports", spec.ports, 1);
  if (spec.ports > kMaxPorts)
    s.fail("ports", "ports = " + std::to_string(spec.ports) + " is more than " +
                        std::to_string(kMaxPorts) + " — lower ports");
  spec.bandwidth = s.bandwidth("bandwidth", spec.bandwidth);
  spec.latency = s.duration("latency", spec.latency);
  spec.fifo_bytes = static_cast<int>(s.integer("fifo", spec.fifo_bytes, 64, 1 << 24));
  spec.bus_bandwidth = s.bandwidth("bus_bandwidth", spec.bus_bandwidth);
  spec.bus_latency = s.duration("bus_latency", spec.bus_latency);
  spec.segment_bandwidth = s.bandwidth("segment_bandwidth", spec.segment_bandwidth);
  spec.segment_latency = s.duration("segment_latency", spec.segment_latency);
  if (spec.medium == SerialMedium::Links) check_links(s, spec);
  return spec;
}

}  // namespace tsunagi::scenario
