"""trace.jsonl as a DataFrame.

One row per line, columns proc, seq, kind, t_ns (the file's keys), detail (the decision, kept as
a dict) and rank (the rank for "r<rank>" processes, <NA> for the rendezvous and relays).

Why detail stays a dict: every kind has its own keys ("rtt_view" has near/host_mates, "plan" has
neighbors/plan, "routes" a routing table), so flattening every kind at once gives a wide frame of
mostly empty columns whose meaning depends on another column. `flatten_detail(trace, kind)`
flattens one kind, where the columns do mean one thing each.
"""

import json

import pandas as pd

COLUMNS = ["proc", "seq", "kind", "t_ns", "detail", "rank"]


def read_trace(path):
    """Read a trace.jsonl file into a DataFrame (see the module docstring for the columns).

    Lines are parsed one by one with json, not pandas.read_json(lines=True): the latter turns
    the nested detail objects into columns of its own choosing and, on pandas 1.5, reads large
    integers in detail as floats. A bad line raises ValueError naming the file and line.
    """
    rows = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                event = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{number}: not a JSON line ({e.msg})") from None
            rows.append((event.get("proc"), event.get("seq"), event.get("kind"),
                         event.get("t_ns"), event.get("detail", {})))
    frame = pd.DataFrame(rows, columns=COLUMNS[:-1])
    frame["seq"] = frame["seq"].astype("int64")
    frame["t_ns"] = frame["t_ns"].astype("int64")
    frame["rank"] = _ranks(frame["proc"])
    return frame


def _ranks(procs):
    """Rank numbers from "r<rank>" labels as a nullable integer column (relays and the
    rendezvous have none), so that `trace[trace["rank"] == 3]` and groupby("rank") work."""
    extracted = procs.str.extract(r"^r(\d+)$", expand=False)
    return pd.to_numeric(extracted, errors="coerce").astype("Int64")


def flatten_detail(trace, kind):
    """The events of one kind with their detail flattened into columns ("detail.<key>";
    nested objects as "detail.<key>.<sub>"), beside proc, seq, t_ns and rank.

    Lists (neighbour lists, groups) stay lists in one cell: they are values, not records.
    """
    rows = trace[trace["kind"] == kind].reset_index(drop=True)
    details = pd.json_normalize(list(rows["detail"]), sep=".")
    details.columns = [f"detail.{c}" for c in details.columns]
    return pd.concat([rows.drop(columns=["detail", "kind"]), details], axis=1)
