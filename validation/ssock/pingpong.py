#!/usr/bin/python3
"""Paper 001, experiment 3: ping-pong within a cluster and across two clusters, direct vs
through the relays (across clusters: 2 daemons, chiba's and hiro's).

Runs validation/ssock/concurrent8.toml with 2 hosts per cluster (ranks 0-1 in chiba, 2-3 in
hiro), message sizes 64 B .. 1 MB; reports the median round trip. Writes
pingpong.csv and pingpong.png into build/validation/ssock (--out DIR; --update: over the committed
copies, the CSV in validation/ssock/, the PNG in docs/figures/). Paper: inside a cluster SSOCK equals
sockets; across clusters through 2 daemons no measurable loss against sockets."""
import os
import statistics

from ssock_common import CLUSTERS_8, PLANS, figure_path, parse_args, pyplot, sweep, write_csv

SCENARIO = "validation/ssock/concurrent8.toml"
PING = 0  # rank 0, in chiba
PAIRS = {"within chiba": 1, "chiba -> hiro": 2}  # the pong rank of each pair


def plan_sets(plan):
    """A plan is several keys at once (the plan, and relays = 0 in every cluster for direct), so
    each plan is its own `tsunagi sweep` over pong x message size."""
    sets = ["workload.kind=pingpong", "workload.pingpong.rounds=10",
            "protocol.plan=" + ("relay" if plan == "relay" else "all")]
    for c in CLUSTERS_8:
        sets.append(f"network.cluster.{c}.hosts=2")
        if plan == "direct":
            sets.append(f"network.cluster.{c}.relays=0")
    return sets


def main():
    args = parse_args(__doc__, "64,1024,16384,262144,1048576", sweeps=True)
    plans = PLANS
    medians = {}
    for plan in plans:
        points = sweep(SCENARIO, os.path.join(args.out, "runs", f"pingpong-{plan}"),
                       grid=[("workload.pingpong.pong", PAIRS.values()),
                             ("workload.pingpong.message_bytes", args.sizes)],
                       sets=plan_sets(plan) + [f"workload.pingpong.ping={PING}"],
                       columns=["workload.details.round_trip_ns"], jobs=args.jobs,
                       failures_ok=True)
        for p in points:
            rtts = p["workload.details.round_trip_ns"]
            key = plan, int(p["workload.pingpong.pong"]), int(p["workload.pingpong.message_bytes"])
            medians[key] = statistics.median(rtts) / 1e3 if rtts else ""
    rows = []
    for pair, pong in PAIRS.items():
        for plan in plans:
            for size in args.sizes:
                median = medians.get((plan, pong, size), "")
                rows.append([pair, plan, size, median])
                print(f"{pair:14} {plan:7} {size:8} B: median round trip "
                      f"{'-' if median == '' else f'{median:.1f} us'}")
    write_csv(os.path.join(args.out, "pingpong.csv"), ["pair", "plan", "message_bytes", "median_rtt_us"], rows)
    plot(rows, figure_path(args, args.out, "pingpong.png"))


def plot(rows, path):
    plt = pyplot()
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for pair in PAIRS:
        for plan in sorted({r[1] for r in rows}):
            pts = [(r[2], r[3]) for r in rows if r[0] == pair and r[1] == plan and r[3] != ""]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=f"{pair}, {plan}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("message bytes")
    ax.set_ylabel("median round trip (us)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
