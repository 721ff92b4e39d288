#!/usr/bin/python3
"""docs/result-schema.md against real result.json files and schemas/result.schema.json
(tests/docs/README.md, ctest docs:result_keys).

  check_result_keys.py --tsunagi BIN --src DIR

Runs one small scenario per workload kind, and per way of inferring and of connecting the
results report differently, on SimGrid (RUNS: about 3 s on one core), then checks
  * every key of every result.json is documented (a row of a key table of the page);
  * every documented key appears in at least one of them (ONLY_IN names the few that need a run
    this check cannot make cheaply, and which test makes it);
  * within every object of a result.json, the documented keys come in the order of the page;
  * the page and the JSON Schema name the same keys.
A row's first cell names keys in code spans: the first in full (`lmmc.writes`), the next ones
beside it (`page_faults` = `lmmc.writes`'s sibling). A key whose type is `object`, `array`,
`[...]` or `{...}` holds data, not keys: what is inside it is not checked.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_tables  # noqa: E402  (beside this file)

PAGE = "docs/result-schema.md"
SCHEMA = "schemas/result.schema.json"
# (name, scenario, overrides): every workload kind, every way groups are found (RTTs, site
# labels, partition windows) and every tree method that reports its own keys; sites, relays
# and a fixed window (long-fat-pair).
RUNS = [
    ("pingpong", "scenarios/teaching/two-switches.toml", []),
    ("intsort", "scenarios/teaching/two-switches.toml",
     ["workload.kind=intsort", "workload.intsort.total_keys=4096", "workload.intsort.iterations=2"]),
    ("connectivity", "scenarios/teaching/two-switches.toml", ["workload.kind=connectivity"]),
    ("partition", "scenarios/teaching/two-switches.toml",
     ["protocol.inference.groups=partition", "protocol.inference.tree=partition"]),
    ("none-exact-tree", "scenarios/teaching/tree-no-bottleneck.toml", []),
    ("multicast", "scenarios/teaching/dragonfly-16.toml", []),
    ("lmmc", "scenarios/teaching/lmmc-hypercube-8.toml", []),
    ("lmmc-pingpong", "scenarios/papers/lmmc-2node.toml", []),
    ("indices", "scenarios/teaching/long-fat-pair.toml", []),
    ("relay", "scenarios/papers/ssock-11-small.toml", []),
]
ONLY_IN = {
    "run.interrupted_at_s": "only in a run stopped by Ctrl-C (cli:interrupt)",
    "serial": "ns-3's counts on serial links (python:results_small_scenarios, label long)",
    "ns3": "ns-3's port drop counts (cli:ns3_port_drops)",
    "latency_scale": "only in a realnet run with scaled latencies (unit:summary: *)",
    "workload.makespan_unscaled_s": "only in a realnet run with scaled latencies (unit:summary: *)",
    "host_costs_not_added": "only in a realnet run given host costs (realnet:host_costs_not_added)",
}
DATA_TYPES = ("object", "array")


# ------------------------------------------------------------------ the page

class Documented:
    """The keys of the page in page order, and which of them hold data rather than keys."""

    def __init__(self, src):
        self.order, self.line, self.data = [], {}, set()
        for table in doc_tables.tables(os.path.join(src, PAGE)):
            # The other sections describe trace.jsonl and topology.json.
            if table.section == "Keys" and table.header and table.header[0] == "key":
                for number, row in table.rows:
                    self.add_row(number, row)

    def add_row(self, number, row):
        names = doc_tables.spans(row[0])
        if not names:
            return
        first = names[0].removesuffix("[]")
        parent = first.rsplit(".", 1)[0] + "." if "." in first else ""
        holds_data = len(row) > 1 and is_data_type(row[1]) or names[0].endswith("[]")
        for i, name in enumerate(names):
            key = first if i == 0 else (name if "." in name else parent + name)
            if key in self.line:
                continue
            self.order.append(key)
            self.line[key] = number
            if holds_data:
                self.data.add(key)

    def knows(self, key):
        """Documented itself, or a section holding documented keys (`inference`)."""
        return key in self.line or any(k.startswith(key + ".") for k in self.line)

    def inside_data(self, key):
        return any(key.startswith(d + ".") for d in self.data)


def is_data_type(cell):
    text = cell.strip().strip("`").lower()
    return text.startswith(DATA_TYPES) or text.startswith(("[", "{"))


# ------------------------------------------------------------------ result files

def run_all(tsunagi, src, work):
    """Runs RUNS; returns {name: result}."""
    results = {}
    for name, scenario, overrides in RUNS:
        out = os.path.join(work, name)
        argv = [tsunagi, "run", os.path.join(src, scenario), "--quiet", "--out", out]
        for o in overrides:
            argv += ["--set", o]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            sys.exit(f"FAIL: {' '.join(argv)} exits {done.returncode}: {done.stderr[-500:]}")
        results[name] = json.load(open(os.path.join(out, "result.json")))
    return results


def walk(value, prefix=""):
    """(path, value) of every key of every object, arrays not entered."""
    if isinstance(value, dict):
        for name, inner in value.items():
            path = f"{prefix}.{name}" if prefix else name
            yield path, inner
            yield from walk(inner, path)


def objects(value, prefix=""):
    """(path, keys in file order) of every object, arrays not entered."""
    if isinstance(value, dict):
        yield prefix, list(value)
        for name, inner in value.items():
            yield from objects(inner, f"{prefix}.{name}" if prefix else name)


def result_problems(doc, results):
    """Keys of the files against the page, both ways, and their order. A problem found in
    several runs is reported once, with the runs."""
    found, seen = {}, set()
    for name, result in results.items():
        for path, _ in walk(result):
            seen.add(path)
            if not doc.inside_data(path) and not doc.knows(path):
                found.setdefault(f"{PAGE}: result.json key '{path}' is not documented", []).append(name)
        for problem in order_problems(doc, result):
            found.setdefault(problem, []).append(name)
    problems = [f"{problem} (runs: {', '.join(names)})" for problem, names in found.items()]
    for key in doc.order:
        if key not in seen and not any(key == k or key.startswith(k + ".") for k in ONLY_IN):
            problems.append(f"{PAGE}:{doc.line[key]}: '{key}' is in no result.json of the runs "
                            f"({', '.join(n for n, _, _ in RUNS)}): gone from the writer?")
    return problems


def order_problems(doc, result):
    """In every object, the documented keys in the page's order."""
    problems = []
    rank = {key: i for i, key in enumerate(doc.order)}
    for path, keys in objects(result):
        if path and doc.inside_data(path + ".x"):
            continue
        full = [f"{path}.{k}" if path else k for k in keys]
        placed = [(k, rank[k]) for k in full if k in rank]
        for (before, a), (after, b) in zip(placed, placed[1:]):
            if b < a:
                problems.append(f"{PAGE}:{doc.line[after]}: '{after}' comes after '{before}' in "
                                "result.json, before it on the page")
    return problems


# ------------------------------------------------------------------ the JSON Schema

def schema_keys(node, prefix=""):
    """Every named property of the schema, through anyOf/oneOf; not into array items."""
    found = set()
    for name, inner in node.get("properties", {}).items():
        path = f"{prefix}.{name}" if prefix else name
        found.add(path)
        found |= schema_keys(inner, path)
    for branch in node.get("anyOf", []) + node.get("oneOf", []):
        found |= schema_keys(branch, prefix)
    return found


def schema_problems(doc, src):
    schema = json.load(open(os.path.join(src, SCHEMA)))
    named = schema_keys(schema)
    problems = []
    for key in doc.order:
        if key not in named and not doc.inside_data(key):
            problems.append(f"{PAGE}:{doc.line[key]}: '{key}' is not a property of {SCHEMA}")
    for key in sorted(named):
        if not doc.knows(key) and not doc.inside_data(key):
            problems.append(f"{SCHEMA}: '{key}' is not documented in {PAGE}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tsunagi", required=True)
    parser.add_argument("--src", required=True)
    args = parser.parse_args()
    src = os.path.abspath(args.src)
    doc = Documented(src)
    with tempfile.TemporaryDirectory(prefix="tsunagi-result-keys.") as work:
        results = run_all(os.path.abspath(args.tsunagi), src, work)
    problems = result_problems(doc, results) + schema_problems(doc, src)
    if problems:
        print(f"FAIL: {len(problems)} problems:\n  " + "\n  ".join(problems))
        return 1
    print(f"ok: {len(doc.order)} documented keys against {len(results)} result.json files "
          f"and {SCHEMA}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
