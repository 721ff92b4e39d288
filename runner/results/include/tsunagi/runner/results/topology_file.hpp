// DIR/topology.json: the scenario's true network in the shape `tsunagi report` draws it (a
// switch tree, clusters behind routers, a Dragonfly's groups and routers, or serial-linked
// nodes), written by `tsunagi run` beside result.json so that a report never needs the scenario
// file (or the --set overrides of the run) again. docs/result-schema.md describes it.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "tsunagi/scenarios/scenario.hpp"

namespace tsunagi::runner {

inline constexpr const char* kTopologyFileName = "topology.json";

// {"kind": "tree"|"wan"|"dragonfly"|"serial", "switches": [{name, parent, cluster, group,
//  uplink, host_link}], "links": [{a, b, class, link}], "clusters": [{name, policy, wan_link}],
//  "ranks": [{host, switch}], "relays": [{label, cluster}]}; a link is {bandwidth_bps (bits/s),
//  latency_ns (one way)}. "links" are the links between switches a and b outside the tree: a
//  Dragonfly's routers (class green, black, blue), serial links between nodes (class serial).
nlohmann::ordered_json topology_json(const scenario::Scenario& scenario);

// Writes topology_json(scenario) under a temporary name and renames it; throws OutputError.
void write_topology_file(const std::filesystem::path& file, const scenario::Scenario& scenario);

}  // namespace tsunagi::runner
