"""One `tsunagi run --out DIR` directory: result.json, trace.jsonl, topology.json,
messages.csv."""

import json
from functools import cached_property
from pathlib import Path

import pandas as pd

from .errors import NotATsunagiOutput
from .trace import read_trace


def _read_json(path):
    """json.load with the file named in the error: a truncated file otherwise says only
    "Expecting value: line 1 column 1"."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}:{e.lineno}:{e.colno}: not valid JSON ({e.msg})") from None


def flatten(value, prefix=""):
    """{"a": {"b": 1}} -> {"a.b": 1}: every scalar (number, bool, string, null) at its dotted
    path, the names `tsunagi sweep --columns` uses. Lists are left out (groups, series: they
    have DataFrames of their own), and so are empty objects."""
    out = {}
    if isinstance(value, dict):
        for key, item in value.items():
            out.update(flatten(item, f"{prefix}{key}."))
    elif not isinstance(value, list):
        out[prefix[:-1]] = value
    return out


class Run:
    """The output of one `tsunagi run`.

    `result` and `topology` are the parsed JSON files (dicts), `trace` the trace as a
    DataFrame (tsunagi.trace). Everything is read on first use, so that loading the directory of
    a 10,000-rank run to read one figure does not parse a trace of a million lines.
    """

    def __init__(self, path):
        self.path = Path(path)
        if not (self.path / "result.json").is_file():
            raise NotATsunagiOutput(
                f"no result.json in {self.path}: is it a `tsunagi run --out` directory?")

    def __repr__(self):
        r = self.result
        return (f"<tsunagi.Run {r.get('scenario')!r} backend={r.get('backend')} "
                f"processes={r.get('processes')} ok={r.get('ok')} at {str(self.path)!r}>")

    @cached_property
    def result(self):
        """result.json as a dict (docs/result-schema.md)."""
        return _read_json(self.path / "result.json")

    @cached_property
    def topology(self):
        """topology.json as a dict (the true network), or None when the run did not write one
        (runs of versions before the report existed)."""
        path = self.path / "topology.json"
        return _read_json(path) if path.is_file() else None

    @cached_property
    def trace(self):
        """trace.jsonl as a DataFrame: proc, seq, kind, t_ns, detail (dict), rank (Int64)."""
        path = self.path / "trace.jsonl"
        if not path.is_file():
            raise NotATsunagiOutput(f"no trace.jsonl in {self.path}: the run wrote result.json only")
        return read_trace(path)

    @cached_property
    def messages(self):
        """messages.csv as a DataFrame: from, to, seq, tag, bytes, sent_ns, received_ns (Int64,
        <NA> when its arrival was not seen), one row per workload message in the order they left;
        None when the run recorded none (more than 300 ranks, or no messages)."""
        path = self.path / "messages.csv"
        if not path.is_file():
            return None
        columns = ("from", "to", "seq", "tag", "bytes", "sent_ns")
        return pd.read_csv(path, dtype={**{c: "int64" for c in columns}, "received_ns": "Int64"})

    @property
    def ok(self):
        return bool(self.result.get("ok"))

    @cached_property
    def figures(self):
        """Every scalar of result.json as a Series indexed by its dotted key
        ("workload.makespan_ns"): the same names as sweep.csv's columns, so that runs can be put
        side by side with pd.concat({name: run.figures ...}, axis=1)."""
        return pd.Series(flatten(self.result), dtype=object)

    @cached_property
    def ranks(self):
        """One row per rank: rank, host, switch, cluster (from topology.json), true_group and
        inferred_group (indices into inference.true_groups / inference.groups; <NA> when the
        rank is in no inferred group, e.g. nothing was inferred). Needs topology.json for host,
        switch and cluster; without it those columns are missing."""
        inference = self.result.get("inference") or {}
        n = int(self.result.get("processes") or 0)
        frame = pd.DataFrame({"rank": range(n)})
        if self.topology:
            switches = self.topology.get("switches", [])
            clusters = self.topology.get("clusters", [])
            rows = self.topology.get("ranks", [])[:n]
            frame["host"] = [r.get("host") for r in rows] + [None] * (n - len(rows))
            frame["switch"] = [switches[r["switch"]]["name"] if 0 <= r.get("switch", -1) < len(switches)
                               else None for r in rows] + [None] * (n - len(rows))

            def cluster_of(r):
                s = r.get("switch", -1)
                c = switches[s].get("cluster", -1) if 0 <= s < len(switches) else -1
                return clusters[c]["name"] if 0 <= c < len(clusters) else None

            frame["cluster"] = [cluster_of(r) for r in rows] + [None] * (n - len(rows))
        frame["true_group"] = _group_index(inference.get("true_groups"), n)
        frame["inferred_group"] = _group_index(inference.get("groups"), n)
        return frame

    @cached_property
    def failed_exits(self):
        """run.failed_exits: proc, t_ns, reason (empty frame with those columns on success)."""
        rows = (self.result.get("run") or {}).get("failed_exits") or []
        return pd.DataFrame(rows, columns=["proc", "t_ns", "reason"])

    @cached_property
    def multicast(self):
        """multicast.series (one row per algorithm, size and group size), or None."""
        return _rows(self.result.get("multicast"), "series")

    @cached_property
    def lmmc(self):
        """lmmc.series (the pingpong pattern: one row per message size), or None (other
        patterns write no series)."""
        return _rows(self.result.get("lmmc"), "series")

    @cached_property
    def indices(self):
        """indices.pairs (one row per ordered pair; `sizes` kept as a list column), or None."""
        return _rows(self.result.get("indices"), "pairs")


def _group_index(groups, n):
    """For each rank 0..n-1 the index of the group holding it, as a nullable integer column."""
    index = [None] * n
    for g, members in enumerate(groups or []):
        for rank in members:
            if 0 <= rank < n:
                index[rank] = g
    return pd.array(index, dtype="Int64")


def _rows(section, key):
    """A list of objects in a result section as a DataFrame, None when the section is absent
    (the run had no such workload), so that `if run.multicast is not None` reads naturally."""
    if not section or key not in section:
        return None
    return pd.DataFrame(section[key])
