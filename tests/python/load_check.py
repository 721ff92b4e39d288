#!/usr/bin/env python3
"""tsunagi.load on a run of scenarios/teaching/two-switches.toml, a 2 x 2 sweep of it, and a
directory that is neither: the shapes, columns and values the docs (docs/python.md) promise.

usage: load_check.py RUN_DIR SWEEP_DIR OTHER_DIR
"""

import sys

import tsunagi

run_dir, sweep_dir, other_dir = sys.argv[1:4]


def expect(condition, what):
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)


run = tsunagi.load(run_dir)
expect(isinstance(run, tsunagi.Run), f"load({run_dir}) gave {run!r}, not a Run")
r = run.result
expect(isinstance(r, dict) and r["scenario"] == "two-switches" and r["processes"] == 8,
       "result is result.json")
trace = run.trace
expect(list(trace.columns) == ["proc", "seq", "kind", "t_ns", "detail", "rank"],
       f"trace columns {list(trace.columns)}")
expect(len(trace) == r["run"]["trace_lines"],
       f"trace has {len(trace)} rows, result.json says {r['run']['trace_lines']} lines")
expect(str(trace["t_ns"].dtype) == "int64" and str(trace["rank"].dtype) == "Int64",
       f"trace dtypes {trace.dtypes.to_dict()}")
expect(trace["detail"].map(lambda d: isinstance(d, dict)).all(), "detail holds dicts")
expect(set(trace.loc[trace["proc"] == "rendezvous", "rank"].isna()) == {True},
       "the rendezvous has no rank")
expect(trace.groupby("proc")["seq"].apply(lambda s: sorted(s) == list(range(len(s)))).all(),
       "seq counts 0.. within each process")
plan = tsunagi.flatten_detail(trace, "plan")
expect(len(plan) == 8 and "detail.neighbors" in plan and "detail.plan" in plan,
       f"flatten_detail(plan): {plan.shape}, {list(plan.columns)}")
ranks = run.ranks
expect(ranks.shape == (8, 6) and list(ranks.columns) ==
       ["rank", "host", "switch", "cluster", "true_group", "inferred_group"],
       f"ranks {ranks.shape} {list(ranks.columns)}")
expect(list(ranks["switch"]) == ["edge1"] * 4 + ["edge2"] * 4, "ranks' switches")
expect((ranks["true_group"] == ranks["inferred_group"]).all(), "groups inferred right")
expect(run.figures["workload.makespan_ns"] == r["workload"]["makespan_ns"], "figures")
expect(run.failed_exits.shape == (0, 3), "no failed exits")
expect(run.multicast is None and run.lmmc is None and run.indices is None, "no series")
expect(run.topology["kind"] == "tree" and len(run.topology["switches"]) == 3, "topology")
messages = run.messages
expect(list(messages.columns) == ["from", "to", "seq", "tag", "bytes", "sent_ns", "received_ns"]
       and len(messages) == r["messages"]["sent"], f"messages {messages.shape}")
expect(str(messages["sent_ns"].dtype) == "int64" and str(messages["received_ns"].dtype) == "Int64"
       and (messages["received_ns"] > messages["sent_ns"]).all(), f"{messages.dtypes.to_dict()}")

sweep = tsunagi.load(sweep_dir)
expect(isinstance(sweep, tsunagi.Sweep), f"load({sweep_dir}) gave {sweep!r}, not a Sweep")
table = sweep.table
expect(table.shape == (4, 9), f"sweep.table shape {table.shape}")
expect(list(table.columns[:3]) == ["protocol.shortcut_capacity", "seed", "ok"],
       f"sweep columns {list(table.columns)}")
expect(table["ok"].dtype == bool and table["ok"].all(), "ok is a boolean column, all true")
expect(str(table["workload.makespan_ns"].dtype) == "int64", "makespans are integers")
expect(len(sweep.points) == 4 and sweep.run(0).result["processes"] == 8, "points and run(i)")

try:
    tsunagi.load(other_dir)
    expect(False, f"load({other_dir}) did not fail")
except tsunagi.NotATsunagiOutput as e:
    expect("no result.json in" in str(e) and "tsunagi run --out" in str(e), f"error text: {e}")
print(f"ok: run {run!r}: trace {trace.shape}, ranks {ranks.shape}; sweep table {table.shape}")
