# Issue 33: the report's picture of the true network carries each link's bandwidth and latency:
# topology.json has them, topology.dot labels its edges with them, and topology.graphml (read
# here with the standard library's XML parser, as networkx, Gephi and yEd read it) has them as
# numeric edge attributes. A WAN run checks the clusters' WAN links too; a Dragonfly and a
# serial hypercube check the links outside the tree (router links by class, serial links).
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
# The links no tree holds: dragonfly-16 (2 groups x 2 chassis x 2 routers, every class 10 Gbps
# and 2 us) has 4 green links (the two routers of each chassis), 4 black (router r of the two
# chassis of a group) and 1 blue (group 0 to group 1); lmmc-hypercube-8's 8 nodes have 12 serial
# links (20 Mbps, 5 us) between nodes whose numbers differ in one bit.
for name in teaching/dragonfly-16 teaching/lmmc-hypercube-8; do
  "$TSUNAGI" run "$SRC/scenarios/$name.toml" --out "$WORK/$(basename "$name")" --quiet >/dev/null
  "$TSUNAGI" report "$WORK/$(basename "$name")" >/dev/null 2>&1
done
[ "$(grep -c 'constraint = false, label = "green: 10 Gbps, 2 us"' "$WORK/dragonfly-16/topology.dot")" -eq 4 ] ||
  fail "topology.dot: not 4 labelled green links"
[ "$(grep -c 'constraint = false, label = "serial: 20 Mbps, 5 us"' "$WORK/lmmc-hypercube-8/topology.dot")" -eq 12 ] ||
  fail "topology.dot: not 12 labelled serial links"
python3 - "$WORK/dragonfly-16" "$WORK/lmmc-hypercube-8" <<'PY'
import collections, json, sys
import xml.etree.ElementTree as ET

NS = {"g": "http://graphml.graphdrawing.org/xmlns"}

def extra_links(run):
    """topology.json's links as {(name a, name b): (class, bps, ns)} and the same from GraphML."""
    topology = json.load(open(f"{run}/topology.json"))
    names = [s["name"] for s in topology["switches"]]
    from_json = {(names[l["a"]], names[l["b"]]): (l["class"], l["link"]["bandwidth_bps"],
                                                  l["link"]["latency_ns"])
                 for l in topology["links"]}
    assert len(from_json) == len(topology["links"]), "a link listed twice"
    root = ET.parse(f"{run}/topology.graphml").getroot()
    graph = root.find("g:graph", NS)
    label = {n.get("id"): n.find("g:data[@key='label']", NS).text for n in graph.findall("g:node", NS)}
    from_graphml = {}
    for e in graph.findall("g:edge", NS):
        data = {d.get("key"): d.text for d in e.findall("g:data", NS)}
        if "class" in data:
            from_graphml[(label[e.get("source")], label[e.get("target")])] = (
                data["class"], float(data["bandwidth_bps"]), int(data["latency_ns"]))
    assert from_graphml == from_json, (from_graphml, from_json)
    return topology["kind"], from_json

kind, links = extra_links(sys.argv[1])
assert kind == "dragonfly", kind
classes = collections.Counter(c for c, _, _ in links.values())
assert classes == {"green": 4, "black": 4, "blue": 1}, classes
assert all((bps, ns) == (1e10, 2000) for _, bps, ns in links.values()), links
assert links[("g0.c0.r0", "g0.c0.r1")][0] == "green", links
assert links[("g0.c0.r0", "g0.c1.r0")][0] == "black", links
assert [pair for pair, (c, _, _) in links.items() if c == "blue"][0][0].startswith("g0."), links

kind, links = extra_links(sys.argv[2])
assert kind == "serial", kind
pairs = {(int(a[1:]), int(b[1:])) for a, b in links}
assert pairs == {(i, i ^ 1 << k) for i in range(8) for k in range(3) if i < i ^ 1 << k}, pairs
assert all(v == ("serial", 2e7, 5000) for v in links.values()), links
print(f"ok: {sum(classes.values())} Dragonfly router links and {len(pairs)} serial links "
      "in topology.json and topology.graphml, with class, bandwidth and latency")
PY
echo "ok: link figures in topology.json, topology.dot and topology.graphml"
