#!/usr/bin/python3
"""Paper 001, experiment 2: N = 8..64 processes over the 8 directly reachable clusters connect
to each other at once; time to full connectivity, direct (plain sockets, every pair connects)
vs through relays (nodes connect inside their cluster and to their relay only), with both SYN
timings (Linux today: 1 s, 6 retries; the paper's 2.6.18: 3 s, 5 retries).

Routers rate-limit SYNs (validation/ssock/concurrent8.toml: burst 700, 1/s — chosen, see there).
Writes concurrent_connect.csv and .png into build/validation/ssock (--out DIR; --update: over the
committed copies: the CSV in validation/ssock/, the PNG in docs/figures/).
Paper: sockets 47 s at 56 processes, time-outs at 189 s at 64; SSOCK 170 ms at 64."""
import os

from ssock_common import (CLUSTERS_8, PLANS, SYN_TIMINGS, connect_failures, connected_ns,
                          figure_path, parse_args, pyplot, run_any, write_csv)

SCENARIO = "validation/ssock/concurrent8.toml"


def sets_for(n, timing, plan):
    rto, retries = SYN_TIMINGS[timing]
    sets = [f"network.wan.syn_rto={rto}", f"network.wan.syn_retries={retries}"]
    for c in CLUSTERS_8:
        sets.append(f"network.cluster.{c}.hosts={n // len(CLUSTERS_8)}")
        if plan == "direct":
            sets.append(f"network.cluster.{c}.relays=0")
    # Direct = the paper's plain sockets: every process connects to every other (both ends).
    sets.append("protocol.plan=relay" if plan == "relay" else "protocol.routing=direct")
    return sets


def main():
    # Its own loop, not `tsunagi sweep` (validation/README.md): every dimension changes several
    # keys together (N sets the hosts of all 8 clusters, a SYN timing rto and retries, the direct
    # plan routing and 8 relay counts), and a sweep's grid is a product of single keys.
    args = parse_args(__doc__, "8,16,24,32,40,48,56,64")
    plans = PLANS
    rows = []
    for timing in SYN_TIMINGS:
        for plan in plans:
            for n in args.sizes:
                run_dir = os.path.join(args.out, "runs", f"connect-{timing}-{plan}-{n}")
                result, events = run_any(SCENARIO, run_dir, sets_for(n, timing, plan))
                failures = connect_failures(events)
                timed_out, timed_out_at = failures.get("timed_out", (0, 0))
                done = connected_ns(result)
                rows.append([timing, plan, n, "" if done is None else done / 1e9, timed_out,
                             timed_out_at / 1e9 if timed_out else "",
                             bool(result and result.get("ok"))])
                print(f"{timing:6} {plan:7} N={n:3}: connected at "
                      f"{'-' if done is None else f'{done / 1e9:.3f} s'}, "
                      f"{timed_out} connects timed out"
                      + (f" (at {timed_out_at / 1e9:.1f} s)" if timed_out else ""))
    header = ["syn_timing", "plan", "processes", "connected_s", "timed_out_connects",
              "timed_out_at_s", "run_ok"]
    write_csv(os.path.join(args.out, "concurrent_connect.csv"), header, rows)
    plot(rows, plans, figure_path(args, args.out, "concurrent_connect.png"))


def plot(rows, plans, path):
    plt = pyplot()
    if plt is None:
        return
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, timing in zip(axes, SYN_TIMINGS):
        for plan in plans:
            pts = [(r[2], r[3] if r[3] != "" else r[5]) for r in rows if r[0] == timing and r[1] == plan]
            fails = [(r[2], r[5]) for r in rows if r[0] == timing and r[1] == plan and r[4]]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=f"{plan}")
            if fails:
                ax.plot([p[0] for p in fails], [p[1] for p in fails], "rx", markersize=10,
                        label=f"{plan}: connects timed out")
        ax.plot([56, 64], [47, 189], "k*", markersize=12, label="paper: sockets (47 s; 189 s time-outs)")
        ax.plot([64], [0.17], "g*", markersize=12, label="paper: SSOCK (170 ms)")
        ax.set_yscale("log")
        ax.set_title(f"SYN timing: {timing} ({SYN_TIMINGS[timing][0]}, {SYN_TIMINGS[timing][1]} retries)")
        ax.set_xlabel("processes")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("time to full connectivity / time-out (s)")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
