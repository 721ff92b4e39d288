# Issue 33: the report's picture of the true network carries each link's bandwidth and latency:
# topology.json has them, topology.dot labels its edges with them, and topology.graphml (read
# here with the standard library's XML parser, as networkx, Gephi and yEd read it) has them as
# numeric edge attributes. A WAN run checks the clusters' WAN links too.
source "$(dirname "$0")/lib.sh"

"$TSUNAGI" run "$SRC/scenarios/teaching/two-switches.toml" --out "$WORK/run" --quiet >/dev/null
"$TSUNAGI" report "$WORK/run" >"$WORK/files.txt" 2>/dev/null
grep -q "$WORK/run/topology.graphml" "$WORK/files.txt" || fail "topology.graphml not listed"
# edge1 -- core: 1 Gbps up, 50 us; every host link: 1 Gbps, 5 us.
grep -q 'label = "1 Gbps, 50 us"' "$WORK/run/topology.dot" || fail "no uplink label in topology.dot"
[ "$(grep -c 'label = "1 Gbps, 5 us"' "$WORK/run/topology.dot")" -eq 8 ] ||
  fail "topology.dot: not one labelled link per rank"

"$TSUNAGI" run "$SRC/scenarios/papers/ssock-11-small.toml" --out "$WORK/wan" --quiet >/dev/null
"$TSUNAGI" report "$WORK/wan" >/dev/null 2>&1

python3 - "$WORK/run/topology.graphml" "$WORK/wan/topology.graphml" <<'PY'
import sys
import xml.etree.ElementTree as ET

NS = {"g": "http://graphml.graphdrawing.org/xmlns"}

def read(path):
    root = ET.parse(path).getroot()
    keys = {k.get("id"): (k.get("attr.name"), k.get("attr.type")) for k in root.findall("g:key", NS)}
    assert keys["bandwidth_bps"] == ("bandwidth_bps", "double"), keys
    assert keys["latency_ns"] == ("latency_ns", "long"), keys
    graph = root.find("g:graph", NS)
    nodes = {n.get("id"): {d.get("key"): d.text for d in n.findall("g:data", NS)}
             for n in graph.findall("g:node", NS)}
    edges = []
    for e in graph.findall("g:edge", NS):
        data = {d.get("key"): d.text for d in e.findall("g:data", NS)}
        edges.append((nodes[e.get("source")], nodes[e.get("target")], data))
    return nodes, edges

nodes, edges = read(sys.argv[1])
kinds = sorted(n["kind"] for n in nodes.values())
assert kinds.count("switch") == 3 and kinds.count("rank") == 8, kinds
links = {(a["label"], b["label"]): (float(d["bandwidth_bps"]), int(d["latency_ns"]))
         for a, b, d in edges}
assert links[("core", "edge1")] == (1e9, 50000), links
assert links[("edge1", "r0")] == (1e9, 5000), links
assert len(links) == 10, links

nodes, edges = read(sys.argv[2])
wan = [(b["label"], d) for a, b, d in edges if a["kind"] == "core" and b["kind"] == "cluster"]
assert len(wan) == 11, wan
chiba = dict(wan)["chiba"]
assert (float(chiba["bandwidth_bps"]), int(chiba["latency_ns"])) == (1e9, 3000000), chiba
print("ok: topology.graphml has", len(links), "links with figures; 11 WAN links")
PY
echo "ok: link figures in topology.json, topology.dot and topology.graphml"
