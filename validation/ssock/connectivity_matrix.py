#!/usr/bin/python3
"""Paper 001, experiment 1: which pairs of the 11 clusters connect, without relays (every
process connects directly to every other one) and with one relay per cluster.

Runs scenarios/papers/ssock-11-small.toml (2 hosts per cluster) on SimGrid and draws, per
ordered pair of clusters, the fraction of process pairs i -> j that reached each other. Writes
connectivity.csv and connectivity.png into build/validation/ssock (--out DIR; --update: over the
committed copies: the CSV in validation/ssock/, the PNG in docs/figures/). Paper: with relays every pair
connects; without, exactly the pairs the firewall/NAT layout forbids stay unreached
(relay.unreached_match_policy)."""
import argparse
import os

from ssock_common import (CLUSTERS_11, ROOT, add_output_options, figure_path, output_dir, pyplot,
                          run_any, write_csv)

SCENARIO = "scenarios/papers/ssock-11-small.toml"
NO_RELAYS = [f"network.cluster.{c}.relays=0" for c in CLUSTERS_11]


def unreached_pairs(result):
    """relay.unreached as a set of (i, j)."""
    return {(int(i), int(j)) for i, j in ((result or {}).get("relay") or {}).get("unreached", [])}


def matrix(unreached, ranks_per_cluster, n_clusters):
    m = [[0.0] * n_clusters for _ in range(n_clusters)]
    for a in range(n_clusters):
        for b in range(n_clusters):
            ranks_a = range(a * ranks_per_cluster, (a + 1) * ranks_per_cluster)
            ranks_b = range(b * ranks_per_cluster, (b + 1) * ranks_per_cluster)
            pairs = [(i, j) for i in ranks_a for j in ranks_b if i != j]
            m[a][b] = sum((i, j) not in unreached for i, j in pairs) / len(pairs)
    return m


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_output_options(parser)
    args = parser.parse_args()
    args.out = output_dir(args, os.path.join(ROOT, "validation", "ssock"), "ssock")
    # Two runs, not a grid: the variants differ in 13 keys at once, so no `tsunagi sweep`.
    variants = {"direct": ["protocol.plan=all", "protocol.routing=direct"] + NO_RELAYS,
                "relays": []}
    rows, matrices = [], {}
    for name, sets in variants.items():
        result, _ = run_any(SCENARIO, os.path.join(args.out, "runs", f"matrix-{name}"), sets)
        unreached = unreached_pairs(result)
        m = matrix(unreached, 2, len(CLUSTERS_11))
        matrices[name] = m
        relay = (result or {}).get("relay", {})
        print(f"{name}: {len(unreached)} unreached ordered pairs; "
              f"pairs_connected {relay.get('pairs_connected', '-')} of {relay.get('pairs_total', '-')}; "
              f"unreached == forbidden: {relay.get('unreached_match_policy', '-')}")
        for a, src in enumerate(CLUSTERS_11):
            for b, dst in enumerate(CLUSTERS_11):
                rows.append([name, src, dst, f"{m[a][b]:.3f}"])
    write_csv(os.path.join(args.out, "connectivity.csv"), ["variant", "from", "to", "reached_fraction"], rows)
    plot(matrices, figure_path(args, args.out, "connectivity.png"))


def plot(matrices, path):
    plt = pyplot()
    if plt is None:
        return
    fig, axes = plt.subplots(1, len(matrices), figsize=(6 * len(matrices), 5.2), squeeze=False)
    for ax, (name, m) in zip(axes[0], matrices.items()):
        ax.imshow(m, cmap="RdYlGn", vmin=0, vmax=1)
        ax.set_xticks(range(len(CLUSTERS_11)), CLUSTERS_11, rotation=60, fontsize=8)
        ax.set_yticks(range(len(CLUSTERS_11)), CLUSTERS_11, fontsize=8)
        ax.set_xlabel("to")
        ax.set_ylabel("from")
        ax.set_title(f"{name}: fraction of process pairs reached")
        for a in range(len(m)):
            for b in range(len(m)):
                ax.text(b, a, f"{m[a][b]:.1f}".rstrip("0").rstrip("."), ha="center", va="center", fontsize=6)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print("wrote", path)


if __name__ == "__main__":
    main()
