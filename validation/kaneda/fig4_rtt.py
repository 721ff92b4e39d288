#!/usr/bin/python3
"""Paper 000 Fig. 4: one node's sorted RTTs on the 112-node cluster, with the jump between the
13th and 14th peer. Runs scenarios/papers/kaneda-112.toml on SimGrid and writes fig4_rtt.csv and
fig4_rtt.png into build/validation/fig4 (--out DIR), or over the committed copies with --update
(the CSV in validation/kaneda/, the PNG in docs/figures/)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    dest, overrides, args = common.parse_with_overrides(__doc__, HERE, "fig4")
    # One point, run through `tsunagi sweep` like the other drivers: run again, it is not redone.
    [point] = common.sweep("scenarios/papers/kaneda-112.toml", common.runs_dir(args, dest, "fig4"),
                           sets=overrides, jobs=args.jobs,
                           columns=["reports.rtt_row.sorted_peer_rtt_ns",
                                    "inference.groups_correct"])
    row = point["reports.rtt_row.sorted_peer_rtt_ns"]
    rtts_us = [ns / 1000.0 for _, ns in row]
    common.write_csv(os.path.join(dest, "fig4_rtt.csv"), ["order", "peer", "rtt_us"],
                     [(i + 1, peer, f"{ns / 1000.0:.3f}") for i, (peer, ns) in enumerate(row)])
    diffs = [rtts_us[i + 1] - rtts_us[i] for i in range(len(rtts_us) - 1)]
    jump_at = max(range(len(diffs)), key=lambda i: diffs[i]) + 1
    print(f"rank 0: {len(rtts_us)} peers, largest step after peer #{jump_at} "
          f"({rtts_us[jump_at - 1]:.1f} -> {rtts_us[jump_at]:.1f} us); "
          f"groups correct: {point['inference.groups_correct']}")
    plt = common.pyplot()
    if plt is None:
        return
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(range(1, len(rtts_us) + 1), rtts_us, marker=".", linestyle="-")
    ax.axvline(jump_at + 0.5, color="grey", linestyle="--", linewidth=0.8)
    ax.set_xlabel("peers of rank 0, sorted by RTT")
    ax.set_ylabel("RTT (µs, min of K probes)")
    ax.set_title("kaneda-112 on SimGrid: sorted RTTs of rank 0")
    fig.tight_layout()
    png = common.figure_path(args, dest, "fig4_rtt.png")
    fig.savefig(png, dpi=120)
    print(f"wrote {dest}/fig4_rtt.csv and {png}")


if __name__ == "__main__":
    main()
