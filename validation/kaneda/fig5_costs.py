#!/usr/bin/python3
"""Paper 000 Fig. 5 with the CPU costs a flow model leaves out (protocol.costs): integer sort
on kaneda-is-128 for shortcut caches 0, 4 and 16 under several calibrations of relay CPU per
forwarded message, select() cost per open connection and connection set-up CPU. Writes
fig5_costs.csv into build/validation/fig5-costs (--out DIR), or over the committed
validation/kaneda/fig5_costs.csv with --update. Extra arguments are key=value overrides for every run (the
page used workload.intsort.iterations=1)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = "scenarios/papers/kaneda-is-128.toml"
# Each calibration is one value of the table protocol.costs (kaneda-is-128.toml has none), so
# calibration x cache is one grid of two keys for `tsunagi sweep`.
CALIBRATIONS = {
    "none": "{}",
    "relay 50us": '{relay="50us"}',
    "relay 200us": '{relay="200us"}',
    "relay 50us + select 0.2us/conn": '{relay="50us",select_per_connection="200ns"}',
    "relay 50us + select 0.2us/conn + connect 200us":
        '{relay="50us",select_per_connection="200ns",connect="200us"}',
}
CACHES = (0, 4, 16)


def main():
    dest, extra, args = common.parse_with_overrides(__doc__, HERE, "fig5-costs")
    names = {table: name for name, table in CALIBRATIONS.items()}
    points = common.sweep(SCENARIO, common.runs_dir(args, dest, "fig5-costs"),
                          grid=[("protocol.costs", CALIBRATIONS.values()),
                                ("protocol.shortcut_capacity", CACHES)],
                          sets=extra, jobs=args.jobs,
                          columns=["workload.makespan_s", "workload.verified", "messages.relayed",
                                   "connections.max_per_node"])
    rows = []
    for p in points:
        rows.append((names[p["protocol.costs"]], int(p["protocol.shortcut_capacity"]),
                     p["workload.makespan_s"], p["workload.verified"], p["messages.relayed"],
                     p["connections.max_per_node"]))
        print(f"{rows[-1][0]:48s} cache {rows[-1][1]:2d}  IS {rows[-1][2]:.4f} s  "
              f"verified {rows[-1][3]}  relayed {rows[-1][4]}  max conn {rows[-1][5]}")
    common.write_csv(os.path.join(dest, "fig5_costs.csv"),
                     ["calibration", "cache", "makespan_s", "verified", "messages_relayed",
                      "max_connections"], rows)
    print(f"wrote {dest}/fig5_costs.csv")


if __name__ == "__main__":
    main()
