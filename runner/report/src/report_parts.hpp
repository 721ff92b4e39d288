// The pieces of a run report, each drawn from the run's files (report_data.hpp). Each returns
// one SVG (or HTML fragment) for the page; the topology and the overlay also have a DOT form
// for Graphviz, written beside the page for papers.
#pragma once

#include <string>

#include "report_data.hpp"
#include "tsunagi/runner/report/report.hpp"

namespace tsunagi::runner::report {

// The true network (switch tree; clusters under a WAN core; Dragonfly groups and routers) with
// every rank coloured by its inferred group and mismatches marked. Empty without topology.json.
std::string true_topology_svg(const RunFiles& run);
std::string true_topology_dot(const RunFiles& run);
// The same graph as GraphML, links with bandwidth_bps and latency_ns (report_graphml.cpp).
std::string topology_graphml(const RunFiles& run);

// What the rendezvous inferred: its tree over the groups if it inferred one, else the groups.
std::string inferred_topology_svg(const RunFiles& run);

// The overlay drawn as the inferred groups: each a cluster of its ranks (or, above
// kRowsPerRankMax ranks, one disc), static connections, shortcuts, relay links, attachments.
std::string overlay_svg(const RunFiles& run);
std::string overlay_dot(const RunFiles& run);

// The timeline is report_timeline.hpp's: a figure with controls and a script.

// Rank 0's RTTs to every peer, sorted (paper 000, Fig. 4); empty when rank 0 did not report them.
std::string sorted_rtts_svg(const RunFiles& run);

// Static connections and shortcuts per rank, from the trace.
std::string connection_counts_svg(const RunFiles& run);

// DIR/topology.dot, DIR/topology.graphml and DIR/overlay.dot, and the Graphviz renderings of
// the DOT files when dot/neato run.
void write_graphviz_files(const RunFiles& run, ReportOutput& output);

}  // namespace tsunagi::runner::report
