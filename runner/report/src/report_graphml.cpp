// DIR/topology.graphml (issue 33): the graph of topology.dot for tools that compute on graphs
// rather than draw them (networkx, Gephi, yEd, igraph). Nodes are what the picture shows (the
// WAN core, clusters' routers, Dragonfly groups, switches, relays, ranks); edges are the links
// with their figures where topology.json has them, and the links outside the tree (a
// Dragonfly's router links, serial links) with their class.
#include <sstream>

#include "report_parts.hpp"
#include "report_svg.hpp"
#include "report_tree.hpp"

namespace tsunagi::runner::report {
namespace {

constexpr const char* kKeys =
    R"(  <key id="label" for="node" attr.name="label" attr.type="string"/>
  <key id="kind" for="node" attr.name="kind" attr.type="string"/>
  <key id="rank" for="node" attr.name="rank" attr.type="int"/>
  <key id="bandwidth_bps" for="edge" attr.name="bandwidth_bps" attr.type="double"/>
  <key id="latency_ns" for="edge" attr.name="latency_ns" attr.type="long"/>
  <key id="class" for="edge" attr.name="class" attr.type="string"/>
)";

void write_node(std::ostringstream& out, std::size_t index, const DrawnNode& node) {
  out << "  <node id=\"n" << index << "\"><data key=\"label\">" << escape(node.label)
      << "</data><data key=\"kind\">" << node.kind << "</data>";
  if (node.rank >= 0) out << "<data key=\"rank\">" << node.rank << "</data>";
  out << "</node>\n";
}

// `kind`: the class of a link outside the tree, "" for the tree's own edges.
void write_edge(std::ostringstream& out, std::size_t a, int b, const LinkFigures& link,
                const std::string& kind = "") {
  out << "  <edge source=\"n" << a << "\" target=\"n" << b << "\">";
  if (link.known())
    out << "<data key=\"bandwidth_bps\">" << num(link.bandwidth_bps)
        << "</data><data key=\"latency_ns\">" << link.latency_ns << "</data>";
  if (!kind.empty()) out << "<data key=\"class\">" << escape(kind) << "</data>";
  out << "</edge>\n";
}

}  // namespace

std::string topology_graphml(const RunFiles& run) {
  const DrawnTree tree = true_tree(run);
  if (tree.root < 0) return "";
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<!-- tsunagi: the true network of " << escape(run.result.value("scenario", "a run"))
      << "; edges carry bandwidth_bps (bits/s) and latency_ns (one way) -->\n"
      << "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
      << kKeys << " <graph id=\"topology\" edgedefault=\"undirected\">\n";
  for (std::size_t i = 0; i < tree.nodes.size(); ++i) write_node(out, i, tree.nodes[i]);
  for (std::size_t i = 0; i < tree.nodes.size(); ++i)
    for (int child : tree.nodes[i].children)
      write_edge(out, i, child, tree.nodes[static_cast<std::size_t>(child)].link);
  for (const DrawnLink& link : tree.links)
    write_edge(out, static_cast<std::size_t>(link.a), link.b, link.link, link.kind);
  out << " </graph>\n</graphml>\n";
  return out.str();
}

}  // namespace tsunagi::runner::report
