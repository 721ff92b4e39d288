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
CALIBRATIONS = {
    "none": [],
    "relay 50us": ["protocol.costs.relay=50us"],
    "relay 200us": ["protocol.costs.relay=200us"],
    "relay 50us + select 0.2us/conn": ["protocol.costs.relay=50us",
                                       "protocol.costs.select_per_connection=200ns"],
    "relay 50us + select 0.2us/conn + connect 200us": [
        "protocol.costs.relay=50us", "protocol.costs.select_per_connection=200ns",
        "protocol.costs.connect=200us"],
}


def main():
    dest, extra, args = common.parse_with_overrides(__doc__, HERE, "fig5-costs")
    rows = []
    for name, sets in CALIBRATIONS.items():
        for cache in (0, 4, 16):
            out = common.runs_dir(args, dest, "fig5-costs",
                               name.replace(" ", "_").replace("/", "-") + f"-cache{cache}")
            r = common.run(SCENARIO, out, sets + [f"protocol.shortcut_capacity={cache}"] + extra)
            rows.append((name, cache, r["workload"]["makespan_s"], r["workload"]["verified"],
                         r["messages"]["relayed"], r["connections"]["max_per_node"]))
            print(f"{name:48s} cache {cache:2d}  IS {rows[-1][2]:.4f} s  verified {rows[-1][3]}  "
                  f"relayed {rows[-1][4]}  max conn {rows[-1][5]}", flush=True)
    common.write_csv(os.path.join(dest, "fig5_costs.csv"),
                     ["calibration", "cache", "makespan_s", "verified", "messages_relayed",
                      "max_connections"], rows)
    print(f"wrote {dest}/fig5_costs.csv")


if __name__ == "__main__":
    main()
